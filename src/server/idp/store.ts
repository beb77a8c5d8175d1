/**
 * Database access of the identity provider: accounts, secrets and oidc-provider payloads. The
 * tables come from migration 0100_identity; this module is the only one that touches them.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';

export interface IdentityTables {
  users: {
    id: string;
    email: string;
    username: string | null;
    name: string;
    password_hash: string;
    demo: number;
    disabled: number;
    created_at: number | string;
  };
  identity_secrets: { name: string; value: string; created_at: number | string };
  oidc_payloads: {
    model: string;
    id: string;
    payload: string;
    grant_id: string | null;
    uid: string | null;
    user_code: string | null;
    expires_at: number | string | null;
    consumed_at: number | string | null;
  };
}

export type IdentityDb = Kysely<IdentityTables>;

export interface Account {
  id: string;
  email: string;
  username: string | null;
  name: string;
  demo: boolean;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

function toAccount(row: IdentityTables['users']): Account {
  return { id: row.id, email: row.email, username: row.username, name: row.name, demo: Boolean(row.demo) };
}

export function normaliseLogin(login: string): string {
  return login.trim().toLowerCase();
}

export class UserStore {
  constructor(private readonly db: IdentityDb) {}

  async findById(id: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).where('disabled', '=', 0).executeTakeFirst();
    return row ? toAccount(row) : undefined;
  }

  /**
   * Checks a login (e-mail or user name) and password. Returns the account, or undefined for an
   * unknown login, a wrong password or a disabled account alike, taking about as long in each case.
   */
  async verify(login: string, password: string): Promise<Account | undefined> {
    const key = normaliseLogin(login);
    if (!key || !password) return undefined;
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('email', '=', key), eb('username', '=', key)]))
      .executeTakeFirst();
    // An account waiting for activation has no password: checked against the dummy like an unknown login.
    const usable = row && row.password_hash.startsWith('scrypt$') ? row.password_hash : undefined;
    const ok = (await verifyPassword(password, usable ?? (await dummyPasswordHash()))) && usable !== undefined;
    if (!row || !ok || row.disabled) return undefined;
    return toAccount(row);
  }

  async create(input: { email: string; name: string; password: string; username?: string; demo?: boolean }): Promise<Account> {
    const row: IdentityTables['users'] = {
      id: randomUUID(),
      email: normaliseLogin(input.email),
      username: input.username ? normaliseLogin(input.username) : null,
      name: input.name,
      password_hash: await hashPassword(input.password),
      demo: input.demo ? 1 : 0,
      disabled: 0,
      created_at: nowSeconds(),
    };
    await this.db.insertInto('users').values(row).execute();
    return toAccount(row);
  }

  /** The id of the account a login (e-mail or user name) names, whether it can sign in or not. */
  async idForLogin(login: string): Promise<string | undefined> {
    const key = normaliseLogin(login);
    if (!key) return undefined;
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('email', '=', key), eb('username', '=', key)]))
      .executeTakeFirst();
    return row?.id;
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', normaliseLogin(email)).executeTakeFirst();
    return row ? toAccount(row) : undefined;
  }

  async emailsIn(emails: readonly string[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const rows = await this.db.selectFrom('users').select('email').where('email', 'in', emails.map(normaliseLogin)).execute();
    return rows.map((r) => r.email);
  }
}

/** Named secrets (signing keys, cookie keys), created once and then read back. */
export class SecretStore {
  constructor(private readonly db: IdentityDb) {}

  async get(name: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('identity_secrets').select('value').where('name', '=', name).executeTakeFirst();
    return row?.value;
  }

  /** Stores `make()` under name unless another process got there first; returns the stored value. */
  async getOrCreate(name: string, make: () => Promise<string>): Promise<string> {
    const existing = await this.get(name);
    if (existing !== undefined) return existing;
    const value = await make();
    await this.db
      .insertInto('identity_secrets')
      .values({ name, value, created_at: nowSeconds() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    return (await this.get(name))!;
  }

  async set(name: string, value: string): Promise<void> {
    await this.db
      .insertInto('identity_secrets')
      .values({ name, value, created_at: nowSeconds() })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
      .execute();
  }
}
