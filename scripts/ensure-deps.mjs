// Installs npm packages when node_modules is missing or older than package-lock.json, so that
// `npm start` and `npm test` work right after `git clone` on a fresh machine.
// `npm install` rather than `npm ci`: npm 11 writes lock files without the other platforms'
// optional packages (rollup, unrs-resolver bindings) and `npm ci` then refuses the lock as out of
// sync. With the lock present, `npm install` still installs the locked versions.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const lock = 'package-lock.json';
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  console.log('Nameščam npm pakete (npm install)…');
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}
