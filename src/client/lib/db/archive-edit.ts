/** The outbox edit that archives one row of a project table (the row leaves every list; the server keeps it). */
import type { AppConfig } from '../../../common/schemas/config';
import type { TableKey } from '../../../common/schemas/project';
import type { LocalEdit } from './outbox';

export function archiveEdit(config: AppConfig, table: TableKey, id: number): LocalEdit {
  return { kind: 'archive', projectId: config.projectId, tableId: config.tables[table].id, id };
}
