/**
 * What the chaos run reads straight from the server's DATA_DIR (its SQLite file, opened read-only
 * next to the running process): the signing key, to make an expired copy of a token, and the
 * live attachments of many records in one query (the API lists them record by record).
 */
import Database from 'better-sqlite3';
import { CompactSign, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose';

/** A copy of `token` the server refuses as expired: same claims and key, `exp` two minutes ago (past the 30 s skew). */
export async function expiredCopy(token: string, databaseFile: string): Promise<string> {
  const header = decodeProtectedHeader(token);
  if (!header.alg) throw new Error('the token names no algorithm');
  const alg = header.alg;
  const payload = decodeJwt(token);
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  let keys: JWK[];
  try {
    const row = db.prepare("select value from identity_secrets where name = 'oidc-signing-keys'").get() as { value: string };
    keys = (JSON.parse(row.value) as { keys: JWK[] }).keys;
  } finally {
    db.close();
  }
  const key = keys.find((candidate) => candidate.kid === header.kid);
  if (!key) throw new Error(`no signing key ${header.kid} in ${databaseFile}`);
  const now = Math.floor(Date.now() / 1000);
  const claims = { ...payload, iat: now - 600, exp: now - 120 };
  if (claims.nbf !== undefined) claims.nbf = now - 600;
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ ...header, alg }).sign(await importJWK(key, alg));
}

/** The live attachments (photos) of the records, in one query. */
export function photosOf(databaseFile: string, recordIds: number[]): Array<{ id: number; recordId: number; name: string }> {
  if (!recordIds.length) return [];
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(`select id, record_id, name from attachments where deleted = 0 and record_id in (${recordIds.map(() => '?').join(',')})`)
      .all(...recordIds) as Array<{ id: number; record_id: number; name: string }>;
    return rows.map((row) => ({ id: row.id, recordId: row.record_id, name: row.name }));
  } finally {
    db.close();
  }
}
