/**
 * oidc-provider storage adapter over our database (table oidc_payloads). The default in-memory
 * adapter loses every session and refresh token on restart, which would sign out farmers in the
 * field; with this one a restart changes nothing for them.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { IdentityDb } from './store';

const nowSeconds = () => Math.floor(Date.now() / 1000);

export function createAdapterFactory(db: IdentityDb) {
  return class DbAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresIn ? nowSeconds() + expiresIn : null,
        consumed_at: null,
      };
      await db
        .insertInto('oidc_payloads')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grant_id: row.grant_id,
            uid: row.uid,
            user_code: row.user_code,
            expires_at: row.expires_at,
          }),
        )
        .execute();
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const row = await db
        .selectFrom('oidc_payloads')
        .select(['payload', 'expires_at', 'consumed_at'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .executeTakeFirst();
      if (!row) return undefined;
      if (row.expires_at !== null && Number(row.expires_at) < nowSeconds()) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at !== null ? { ...payload, consumed: Number(row.consumed_at) } : payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db.updateTable('oidc_payloads').set({ consumed_at: nowSeconds() }).where('model', '=', this.model).where('id', '=', id).execute();
    }

    async destroy(id: string): Promise<void> {
      await db.deleteFrom('oidc_payloads').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
    }
  };
}

/** Removes expired artefacts; called now and then so the table does not grow without bound. */
export async function purgeExpired(db: IdentityDb): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('expires_at', '<', nowSeconds()).execute();
}
