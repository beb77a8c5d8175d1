/**
 * Spatial structures beyond the bbox columns: on PostgreSQL with PostGIS a geometry column kept in
 * step with the GeoJSON text (trigger), with a GiST index; nothing on SQLite or without PostGIS
 * (start-up adds them later if PostGIS is installed afterwards: database.ts).
 */
import type { Kysely } from 'kysely';
import type { DialectLayer } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>, dialect: DialectLayer): Promise<void> {
  await dialect.createSpatial(db);
}
