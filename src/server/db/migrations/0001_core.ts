/**
 * Core schema: projects → tables → columns, records (properties keyed by column id, GeoJSON
 * geometry with an indexed bounding box), attachment slots and attachments, project roles,
 * idempotency keys, applied bulk operations and per-record history.
 */
import { sql, type Kysely } from 'kysely';
import { LOCAL_ID_BOUND } from '../../../common/constants';
import type { DialectLayer } from '../dialect';

// Migrations are frozen history: they use Kysely<any>, not the current Database type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb, dialect: DialectLayer): Promise<void> {
  await dialect
    .addIdColumn(db.schema.createTable('projects'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await dialect
    .addIdColumn(db.schema.createTable('project_tables'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_tables_key', ['project_id', 'key'])
    .execute();

  await dialect
    .addIdColumn(db.schema.createTable('table_columns'))
    .addColumn('table_id', 'integer', (c) => c.notNull().references('project_tables.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('ref_table_id', 'integer', (c) => c.references('project_tables.id'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('table_columns_name', ['table_id', 'name'])
    .execute();

  await dialect
    .addIdColumn(db.schema.createTable('records'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id'))
    .addColumn('table_id', 'integer', (c) => c.notNull().references('project_tables.id'))
    .addColumn('properties', dialect.types.json, (c) => c.notNull())
    .addColumn('geometry', 'text')
    .addColumn('min_x', dialect.types.double)
    .addColumn('min_y', dialect.types.double)
    .addColumn('max_x', dialect.types.double)
    .addColumn('max_y', dialect.types.double)
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'text')
    .addColumn('updated_by', 'text')
    .execute();
  await dialect.setSequenceStart(db, 'records', LOCAL_ID_BOUND);
  // table_id only: `deleted` is a low-selectivity flag, and with it in this index SQLite's planner
  // preferred it over the per-column property indexes (records_prop_*) that farmer scopes use.
  await db.schema.createIndex('records_table').on('records').column('table_id').execute();
  // The bbox prefilter of spatial and extent queries: a range scan on min_x within a table, the
  // other three bounds checked from the index entry itself.
  await db.schema.createIndex('records_bbox').on('records').columns(['table_id', 'min_x', 'max_x', 'min_y', 'max_y']).execute();

  await dialect
    .addIdColumn(db.schema.createTable('table_attachment_infos'))
    .addColumn('table_id', 'integer', (c) => c.notNull().references('project_tables.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime_types', 'text')
    .addColumn('max_files', 'integer')
    .addUniqueConstraint('table_attachment_infos_name', ['table_id', 'name'])
    .execute();

  await dialect
    .addIdColumn(db.schema.createTable('attachments'))
    .addColumn('record_id', 'integer', (c) => c.notNull().references('records.id'))
    .addColumn('table_id', 'integer', (c) => c.notNull().references('project_tables.id'))
    .addColumn('table_attachment_info_id', 'integer', (c) => c.notNull().references('table_attachment_infos.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('thumb_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await dialect.setSequenceStart(db, 'attachments', LOCAL_ID_BOUND);
  await db.schema.createIndex('attachments_record').on('attachments').columns(['record_id', 'table_attachment_info_id']).execute();
  await db.schema.createIndex('attachments_creator').on('attachments').columns(['created_by']).execute();

  await db.schema
    .createTable('project_roles')
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('editor', 'reader')`))
    .addPrimaryKeyConstraint('project_roles_pk', ['project_id', 'email', 'role'])
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['caller', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();

  await db.schema
    .createTable('applied_ops')
    .addColumn('caller', 'text', (c) => c.notNull())
    .addColumn('op_id', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('applied_ops_pk', ['caller', 'op_id'])
    .execute();

  await dialect
    .addIdColumn(db.schema.createTable('record_history'))
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('table_id', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'text')
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .execute();
  await db.schema.createIndex('record_history_record').on('record_history').columns(['record_id', 'id']).execute();

  await dialect
    .addIdColumn(db.schema.createTable('search_profiles'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('table_ids', 'text')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'search_profiles',
    'record_history',
    'applied_ops',
    'idempotency_keys',
    'project_roles',
    'attachments',
    'table_attachment_infos',
    'records',
    'table_columns',
    'project_tables',
    'projects',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
