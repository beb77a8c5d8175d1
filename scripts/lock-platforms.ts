// What the lock file must hold so that `npm ci` installs on every platform: each optional
// dependency of each locked package (rollup's, unrs-resolver's, esbuild's, sharp's platform
// builds) has an entry of its own, found the way Node resolves it (in the package's own
// node_modules or in one of its parents'). npm writes an entry only for the builds it could
// resolve, so a lock written where some builds were missing refuses `npm ci` elsewhere.

export interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}
export interface Lock {
  packages: Record<string, LockEntry>;
}
export interface MissingOptional {
  /** Lock path of the package that declares the optional dependency, e.g. `node_modules/rollup`. */
  from: string;
  name: string;
  spec: string;
}

/** The lock path a package named `name` resolves to from the package at `from`, or null. */
export function resolveInLock(lock: Lock, from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (lock.packages[key]) return key;
    if (!dir) return null;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}

export function missingOptionalDependencies(lock: Lock): MissingOptional[] {
  const missing: MissingOptional[] = [];
  for (const [from, entry] of Object.entries(lock.packages)) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      if (!resolveInLock(lock, from, name)) missing.push({ from, name, spec });
    }
  }
  return missing;
}
