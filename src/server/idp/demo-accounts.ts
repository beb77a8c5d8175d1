/**
 * Demo sign-in accounts: created in demo mode only, password "demo", stored hashed like
 * any other. A production server refuses to start while any of them exists, so a demo database
 * cannot be promoted to production by accident.
 */
import type { UserStore } from './store';

const DEMO_PASSWORD = 'demo';

export const DEMO_ACCOUNTS = [
  // Names as in the demo farmers records (db/seed-demo.ts).
  { email: 'kmet1@example.si', name: 'Janez Novak', role: 'farmer' },
  { email: 'kmet2@example.si', name: 'Marija Horvat', role: 'farmer' },
  { email: 'urednik@example.si', name: 'Ana Kovač', role: 'editor' },
  { email: 'bralec@example.si', name: 'Peter Zupan', role: 'reader' },
] as const;

class DemoAccountsInProductionError extends Error {
  override name = 'DemoAccountsInProductionError';
}

/** Creates the missing demo accounts (idempotent). */
export async function ensureDemoAccounts(users: UserStore): Promise<void> {
  const existing = new Set(await users.emailsIn(DEMO_ACCOUNTS.map((a) => a.email)));
  for (const account of DEMO_ACCOUNTS) {
    if (existing.has(account.email)) continue;
    await users.create({ email: account.email, name: account.name, password: DEMO_PASSWORD, demo: true });
  }
}

/** Throws when production would run with demo accounts (in the database or asked for). */
export async function refuseDemoAccountsInProduction(users: UserStore, demoRequested: boolean): Promise<void> {
  if (demoRequested) {
    throw new DemoAccountsInProductionError('Demo accounts (password "demo") are refused when NODE_ENV=production: set DEMO=false.');
  }
  const found = await users.emailsIn(DEMO_ACCOUNTS.map((a) => a.email));
  if (found.length > 0) {
    throw new DemoAccountsInProductionError(
      `Refusing to start with NODE_ENV=production: demo accounts exist in the database (${found.join(', ')}). ` +
        'Remove them from the users table or start from a fresh database.',
    );
  }
}
