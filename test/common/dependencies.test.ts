import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { missingOptionalDependencies, resolveInLock, type Lock } from '../../scripts/lock-platforms';

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as Lock;

/**
 * The platforms the lock must install on besides this machine's: a Mac, Windows, a musl image.
 * A Linux build that names no libc (esbuild's static binaries) runs on musl too.
 */
function platformsOf(from: string): { darwin: boolean; win32: boolean; musl: boolean } {
  const builds = Object.keys(lock.packages[from]?.optionalDependencies ?? {})
    .map((name) => lock.packages[resolveInLock(lock, from, name) ?? ''])
    .filter((entry) => entry !== undefined);
  return {
    darwin: builds.some((entry) => entry.os?.includes('darwin')),
    win32: builds.some((entry) => entry.os?.includes('win32')),
    musl: builds.some((entry) => entry.os?.includes('linux') && (!entry.libc || entry.libc.includes('musl'))),
  };
}

describe('package-lock.json', () => {
  it('has an entry for every optional dependency of every locked package (npm ci refuses it otherwise)', () => {
    expect(missingOptionalDependencies(lock)).toEqual([]);
  });

  it.each(['node_modules/rollup', 'node_modules/unrs-resolver', 'node_modules/esbuild', 'node_modules/@parcel/watcher', 'node_modules/sharp'])(
    '%s has its platform builds for darwin, win32 and linux-musl',
    (from) => {
      expect(lock.packages[from]).toBeDefined();
      expect(platformsOf(from)).toEqual({ darwin: true, win32: true, musl: true });
    },
  );
});

describe('docs/dependencies.md', () => {
  it('names every direct dependency of package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const docs = readFileSync(new URL('../../docs/dependencies.md', import.meta.url), 'utf8');
    const named = new Set([...docs.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]));
    const direct = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)];
    expect(direct.filter((name) => !named.has(name))).toEqual([]);
  });
});
