/**
 * Brings every project of the database up to the tables' description (MONITORING_TABLES, from
 * src/common/schemas/project.ts): a described table the project lacks is created, and a described
 * column a table lacks is added after its existing columns (ids are given in that order, as in a
 * new project), with its attachment slots. Nothing is renamed or removed, and a project's own
 * extra tables and columns stay. Idempotent: a migration that follows an addition to the
 * description calls it (docs/architecture.md, Adding a table).
 */
import type { Executor } from './dialect';
import { MONITORING_TABLES } from './monitoring-schema';

export async function ensureDescribedTables(db: Executor): Promise<void> {
  const projects = await db.selectFrom('projects').select('id').orderBy('id').execute();
  for (const { id: projectId } of projects) {
    const existing = await db.selectFrom('project_tables').select(['id', 'key']).where('project_id', '=', projectId).execute();
    // Only projects of the monitoring scheme (a farmers table) are extended.
    if (!existing.some((table) => table.key === 'farmers')) continue;
    const tableIds = new Map(existing.map((table) => [table.key, table.id]));
    for (const table of MONITORING_TABLES) {
      if (tableIds.has(table.key)) continue;
      const row = await db
        .insertInto('project_tables')
        .values({ project_id: projectId, key: table.key, name: table.name })
        .returning('id')
        .executeTakeFirstOrThrow();
      tableIds.set(table.key, row.id);
    }
    for (const table of MONITORING_TABLES) {
      const tableId = tableIds.get(table.key)!;
      const columns = await db.selectFrom('table_columns').select(['name', 'position']).where('table_id', '=', tableId).execute();
      const names = new Set(columns.map((column) => column.name));
      let position = columns.reduce((max, column) => Math.max(max, column.position + 1), 0);
      for (const column of table.columns) {
        if (names.has(column.name)) continue;
        const refTableId = column.ref ? tableIds.get(column.ref) : undefined;
        await db
          .insertInto('table_columns')
          .values({ table_id: tableId, name: column.name, type: column.type, ref_table_id: refTableId ?? null, position: position++ })
          .execute();
      }
      const slots = await db.selectFrom('table_attachment_infos').select('name').where('table_id', '=', tableId).execute();
      for (const slot of table.attachments ?? []) {
        if (slots.some((existingSlot) => existingSlot.name === slot.name)) continue;
        await db
          .insertInto('table_attachment_infos')
          .values({ table_id: tableId, name: slot.name, mime_types: slot.mimeTypes?.join(',') ?? null, max_files: slot.maxFiles ?? null })
          .execute();
      }
    }
  }
}
