/**
 * Sign-in accounts for the embedded provider and AUTH=basic, outside demo mode:
 *
 *   npx tsx src/server/idp/users-cli.ts add <e-mail> "<name>" [--username <name>]   (password on stdin)
 *   npx tsx src/server/idp/users-cli.ts password <e-mail>                          (new password on stdin)
 *   npx tsx src/server/idp/users-cli.ts list
 *   npx tsx src/server/idp/users-cli.ts rotate-keys                                (new signing key)
 *
 * Uses the database of DATA_DIR like the server. The password is read from standard input (one
 * line), never from the command line where it would land in the shell history and `ps`.
 * Roles are not set here: a farmer needs a farmers record with the same e-mail, editors and
 * readers a project_roles row (see the README, Sign-in).
 */
import { mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { openDatabase } from '../db/database';
import { readEnv } from '../env';
import { hashPassword } from './password';
import { rotateSigningKey } from './keys';
import { SecretStore, UserStore, normaliseLogin, type IdentityDb } from './store';

const USAGE = 'usage: users-cli.ts add <e-mail> "<name>" [--username <name>] | password <e-mail> | list | rotate-keys';

async function readPassword(): Promise<string> {
  process.stderr.write('geslo (password): ');
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return '';
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const env = readEnv();
  mkdirSync(env.dataDir, { recursive: true });
  const handle = await openDatabase({ dataDir: env.dataDir, database: env.database });
  const db = handle.db as unknown as IdentityDb;
  const users = new UserStore(db);
  try {
    if (command === 'list') {
      const rows = await db.selectFrom('users').select(['email', 'username', 'name', 'demo', 'disabled']).orderBy('email').execute();
      for (const row of rows) console.log(JSON.stringify(row));
      return;
    }
    if (command === 'rotate-keys') {
      // Running servers pick the new key up at restart; until then they keep signing with the
      // old one, and every verifier accepts both (an unknown kid reloads the key set).
      const keys = await rotateSigningKey(new SecretStore(db));
      console.log(JSON.stringify({ signingKid: keys.privateJwks.keys[0]?.kid, keys: keys.publicJwks.keys.length }));
      return;
    }
    if (command === 'add' && rest[0] && rest[1]) {
      const usernameAt = rest.indexOf('--username');
      const username = usernameAt >= 0 ? rest[usernameAt + 1] : undefined;
      const password = await readPassword();
      if (password.length < 8) throw new Error('the password must have at least 8 characters');
      const account = await users.create({ email: rest[0], name: rest[1], password, ...(username ? { username } : {}) });
      console.log(JSON.stringify({ created: account.email, id: account.id }));
      return;
    }
    if (command === 'password' && rest[0]) {
      const password = await readPassword();
      if (password.length < 8) throw new Error('the password must have at least 8 characters');
      const result = await db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password) })
        .where('email', '=', normaliseLogin(rest[0]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new Error(`no account ${rest[0]}`);
      console.log(JSON.stringify({ updated: normaliseLogin(rest[0]) }));
      return;
    }
    console.error(USAGE);
    process.exitCode = 2;
  } finally {
    await handle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
