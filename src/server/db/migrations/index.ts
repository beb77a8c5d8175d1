/**
 * The static list of migrations, run in name order at start-up by Kysely's Migrator. A static
 * list (rather than reading the folder) works the same under tsx, jest and a bundler.
 * Records and projects are 0001–0099, identity 0100_*: add one import and one entry below.
 * Kysely refuses a new migration named before one already run, so later ones sort after 0100_*
 * (0200_property_indexes).
 */
import type { Kysely, Migration, MigrationProvider } from 'kysely';
import type { DialectLayer } from '../dialect';
import * as m0001 from './0001_core';
import * as m0002 from './0002_text_search';
import * as m0003 from './0003_spatial';
import * as m0100 from './0100_identity'; // identity provider
import * as m0200 from './0200_property_indexes';
import * as m0300 from './0300_one_live_indicator_per_key';
import * as m0400 from './0400_account_activations'; // farmers' activation links
import * as m0500 from './0500_history_time'; // the audit trail's time window
import * as m0600 from './0600_review'; // the review loop's columns and the comments table

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
interface MigrationModule {
  up(db: AnyDb, dialect: DialectLayer): Promise<void>;
  down?(db: AnyDb, dialect: DialectLayer): Promise<void>;
}

const MIGRATIONS: Record<string, MigrationModule> = {
  '0001_core': m0001,
  '0002_text_search': m0002,
  '0003_spatial': m0003,
  '0100_identity': m0100, // identity provider
  '0200_property_indexes': m0200,
  '0300_one_live_indicator_per_key': m0300,
  '0400_account_activations': m0400, // farmers' activation links
  '0500_history_time': m0500, // the audit trail's time window
  '0600_review': m0600, // the review loop's columns and the comments table
};

/** Migrations receive the dialect layer as a second argument (files that don't need it ignore it). */
export class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: DialectLayer) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const result: Record<string, Migration> = {};
    for (const [name, module] of Object.entries(MIGRATIONS)) {
      const down = module.down;
      result[name] = {
        up: (db) => module.up(db, this.dialect),
        ...(down ? { down: (db: AnyDb) => down(db, this.dialect) } : {}),
      };
    }
    return result;
  }
}
