// The browser tests drive Debian's Chromium (the build machines cannot download a browser).
// Before `npm test`: when it is missing and this is Debian with root rights, install it with
// apt-get; otherwise say exactly what is missing (the browser suites then skip, except in CI).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = existsSync('/usr/bin/apt-get');
  if (root && apt && !process.env.CHROMIUM_PATH) {
    console.log('Nameščam Chromium za teste v brskalniku (apt-get install chromium)…');
    try {
      execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
    } catch {
      console.warn('Chromium ni bilo mogoče namestiti: testi v brskalniku bodo preskočeni (v CI pa bodo spodleteli).');
    }
  } else {
    console.warn(
      `Chromium ni na ${chromium}: namestite ga z \`sudo apt-get install -y chromium\` (Debian) ali nastavite CHROMIUM_PATH. ` +
        'Brez njega so testi v brskalniku preskočeni (v CI pa spodletijo).',
    );
  }
}
