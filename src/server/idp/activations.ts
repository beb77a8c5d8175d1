/**
 * Farmers' sign-in accounts and their one-time activation links (migration 0400). When an editor
 * writes a farmer with an e-mail, `ensureFarmerAccount` makes sure a users row exists for it, with
 * no usable password (PENDING_PASSWORD_HASH never verifies), in the same transaction as the
 * farmer. The editor then asks for a link (`issueActivation`): 32 random bytes, of which only the
 * SHA-256 is stored; a new link deletes the account's unused ones, so at most one works at a time.
 * The farmer opens it and sets a password (`completeActivation`): the hash is written and the link
 * marked used in one transaction, so a link works once even when two tabs submit together.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ACTIVATION_TTL_S } from './constants';
import { hashPassword } from './password';
import { normaliseLogin, type IdentityTables } from './store';

/** Stored instead of a scrypt hash until the farmer sets a password: not a hash, so nothing verifies against it. */
const PENDING_PASSWORD_HASH = '!activation-pending';

interface ActivationTables extends IdentityTables {
  account_activations: {
    token_hash: string;
    user_id: string;
    created_by: string;
    created_at: number | string;
    expires_at: number | string;
    used_at: number | string | null;
  };
}

/** Any Kysely executor over our database (the app's, or a request's transaction). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the records' Database and the identity tables are typed apart
export type AnyExecutor = Kysely<any>;

const tables = (db: AnyExecutor) => db as unknown as Kysely<ActivationTables>;
const nowSeconds = () => Math.floor(Date.now() / 1000);
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface AccountStatus {
  exists: boolean;
  activated: boolean;
  activationPending: boolean;
  /** ISO instant the pending link stops working. */
  expiresAt?: string;
}

/** Creates a pending account for `email` unless one exists (any account: an editor's, a demo one). */
export async function ensureFarmerAccount(db: AnyExecutor, email: string, name: string): Promise<void> {
  await tables(db)
    .insertInto('users')
    .values({
      id: randomUUID(),
      email: normaliseLogin(email),
      username: null,
      name,
      password_hash: PENDING_PASSWORD_HASH,
      demo: 0,
      disabled: 0,
      created_at: nowSeconds(),
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
}

async function userByEmail(db: AnyExecutor, email: string) {
  return tables(db).selectFrom('users').select(['id', 'password_hash']).where('email', '=', normaliseLogin(email)).executeTakeFirst();
}

export async function accountStatus(db: AnyExecutor, email: string, now = nowSeconds()): Promise<AccountStatus> {
  const user = await userByEmail(db, email);
  if (!user) return { exists: false, activated: false, activationPending: false };
  const activated = user.password_hash !== PENDING_PASSWORD_HASH;
  const pending = await tables(db)
    .selectFrom('account_activations')
    .select('expires_at')
    .where('user_id', '=', user.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('expires_at', 'desc')
    .executeTakeFirst();
  return {
    exists: true,
    activated,
    activationPending: Boolean(pending) && !activated,
    ...(pending && !activated ? { expiresAt: new Date(Number(pending.expires_at) * 1000).toISOString() } : {}),
  };
}

export type IssueResult = { ok: true; token: string; expiresAt: string } | { ok: false; reason: 'no-account' | 'activated' };

/** A new link for the account of `email`; the account's unused links stop working. */
export async function issueActivation(db: AnyExecutor, email: string, createdBy: string, now = nowSeconds()): Promise<IssueResult> {
  const user = await userByEmail(db, email);
  if (!user) return { ok: false, reason: 'no-account' };
  if (user.password_hash !== PENDING_PASSWORD_HASH) return { ok: false, reason: 'activated' };
  await tables(db).deleteFrom('account_activations').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
  const token = randomBytes(32).toString('base64url');
  const expires = now + ACTIVATION_TTL_S;
  await tables(db)
    .insertInto('account_activations')
    .values({ token_hash: hashToken(token), user_id: user.id, created_by: createdBy, created_at: now, expires_at: expires, used_at: null })
    .execute();
  return { ok: true, token, expiresAt: new Date(expires * 1000).toISOString() };
}

export type LinkState = { state: 'valid'; userId: string; email: string } | { state: 'invalid' | 'expired' | 'used' };

/** What a link's token stands for now. Unknown and replaced links are alike ('invalid'). */
export async function activationState(db: AnyExecutor, token: string, now = nowSeconds()): Promise<LinkState> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { state: 'invalid' };
  const row = await tables(db)
    .selectFrom('account_activations')
    .innerJoin('users', 'users.id', 'account_activations.user_id')
    .select(['account_activations.user_id', 'account_activations.expires_at', 'account_activations.used_at', 'users.email'])
    .where('account_activations.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) return { state: 'invalid' };
  if (row.used_at !== null) return { state: 'used' };
  if (Number(row.expires_at) <= now) return { state: 'expired' };
  return { state: 'valid', userId: row.user_id, email: row.email };
}

/** Sets the password and uses up the link, or answers why the link does not work (nothing changed). */
export async function completeActivation(db: AnyExecutor, token: string, password: string, now = nowSeconds()): Promise<LinkState> {
  const passwordHash = await hashPassword(password);
  return tables(db)
    .transaction()
    .execute(async (trx) => {
      const link = await activationState(trx, token, now);
      if (link.state !== 'valid') return link;
      // Marks the link used only if nobody did so since the check (two submits at once: one wins).
      const used = await trx
        .updateTable('account_activations')
        .set({ used_at: now })
        .where('token_hash', '=', hashToken(token))
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return { state: 'used' } as const;
      await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', link.userId).execute();
      return link;
    });
}

/** The farmer's sign-in account (made if missing) and a new activation link for it, in one transaction. */
export async function issueFarmerActivation(db: AnyExecutor, farmer: { email: string; name: string }, createdBy: string): Promise<IssueResult> {
  return db.transaction().execute(async (trx) => {
    await ensureFarmerAccount(trx, farmer.email, farmer.name);
    return issueActivation(trx, farmer.email, createdBy);
  });
}
