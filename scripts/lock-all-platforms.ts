// `npm run lock:all-platforms`: after `npm install <pkg>`, puts back into package-lock.json the
// optional platform builds npm left out (see scripts/lock-platforms.ts), with the fewest version
// changes: only a package whose builds are missing is re-resolved, to the newest version not above
// the locked one whose builds are all on the registry (a registry mirror may lack the newest
// builds, which is how they went missing), pinned for the one `npm install --package-lock-only`
// run by a temporary `overrides` entry. Everything else keeps its locked version.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { missingOptionalDependencies, type Lock } from './lock-platforms';

const LOCK = 'package-lock.json';
const PACKAGE = 'package.json';
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const writeJson = (file: string, value: unknown) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
const npm = (args: string[]) => execFileSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const view = <T>(spec: string, field: string): T | null => {
  try {
    const out = execFileSync('npm', ['view', spec, field, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out.trim() ? (JSON.parse(out) as T) : null;
  } catch {
    return null;
  }
};
const numeric = (version: string) => version.split(/[.+-]/).slice(0, 3).map(Number);
const notAbove = (a: string, b: string) => {
  const [x, y] = [numeric(a), numeric(b)];
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return true;
};
const isExact = (spec: string) => /^\d+\.\d+\.\d+$/.test(spec);

/** Newest version of `name` ≤ `current`, same major, with every exactly pinned optional build published. */
function completeVersion(name: string, current: string): string | null {
  const versions = (view<string[]>(name, 'versions') ?? [])
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && numeric(v)[0] === numeric(current)[0] && notAbove(v, current))
    .sort((a, b) => (notAbove(a, b) ? 1 : -1));
  const published = new Map<string, Set<string>>();
  for (const version of versions.slice(0, 30)) {
    const builds = view<Record<string, string>>(`${name}@${version}`, 'optionalDependencies') ?? {};
    const complete = Object.entries(builds).every(([build, spec]) => {
      if (!isExact(spec)) return true;
      if (!published.has(build)) published.set(build, new Set([view<string | string[]>(build, 'versions') ?? []].flat()));
      return published.get(build)!.has(spec);
    });
    if (complete) return version;
  }
  return null;
}

const lock = readJson<Lock>(LOCK);
const missing = missingOptionalDependencies(lock);
if (!missing.length) {
  console.log('package-lock.json already lists every platform build.');
  process.exit(0);
}
const parents = [...new Set(missing.map((m) => m.from))];
const pins: Record<string, string> = {};
for (const from of parents) {
  const name = from.slice(from.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const current = lock.packages[from]!.version!;
  const version = completeVersion(name, current);
  if (!version) throw new Error(`${name}: no version ≤ ${current} has all its platform builds on the registry`);
  console.log(`${name}: ${current} → ${version} (${missing.filter((m) => m.from === from).length} builds were missing)`);
  pins[name] = version;
  for (const build of Object.keys(lock.packages[from]!.optionalDependencies ?? {})) {
    for (const key of Object.keys(lock.packages)) if (key.endsWith(`node_modules/${build}`)) delete lock.packages[key];
  }
  delete lock.packages[from];
}
const pkgText = readFileSync(PACKAGE, 'utf8');
const pkg = JSON.parse(pkgText) as { overrides?: Record<string, string> };
try {
  writeJson(LOCK, lock);
  writeJson(PACKAGE, { ...pkg, overrides: { ...pkg.overrides, ...pins } });
  npm(['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund']);
} finally {
  writeFileSync(PACKAGE, pkgText);
}
// Without the overrides again: npm keeps the pinned versions where they satisfy every range.
npm(['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund']);
const left = missingOptionalDependencies(readJson<Lock>(LOCK));
if (left.length) {
  console.error('Still missing:', left.map((m) => `${m.from} → ${m.name}@${m.spec}`).join(', '));
  process.exit(1);
}
console.log('package-lock.json lists every platform build; `npm ci` accepts it on every platform.');
