// Installs npm packages when node_modules is missing or older than package-lock.json, so that
// `npm start` and `npm test` work right after `git clone` on a fresh machine.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const lock = 'package-lock.json';
const stale = !existsSync(marker) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs + 1000);
if (stale) {
  console.log('Nameščam npm pakete (npm ci)…');
  execSync(existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', { stdio: 'inherit' });
}
