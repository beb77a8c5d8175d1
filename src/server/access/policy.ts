/**
 * Write rules per role and table (docs/architecture.md, Roles), decided here once for every route:
 * - readers never write (403);
 * - editors may do everything, and only editors archive;
 * - farmers write only inside their own chain, and per table only what their field work needs:
 *   paths: create a transect on their own meadow (walked or drawn in the field) and update its
 *   line (geometry, `walk`, `length_m`) — not rename or move an existing one;
 *   durationPaths: create (the loading chain creates the link when missing) and update;
 *   forms and indicators: create, update and delete. Deleting is allowed to farmers for these two
 *   because removing a wrongly entered observation or a form created by mistake is part of filling
 *   them in (editors delete anything); everything
 *   else (farmers, areas, durations, paths, durationPaths) only editors delete;
 *   comments: create on their own forms, never update or delete.
 * A form a farmer sent to review is locked for them until it is returned (a 409, not a 403:
 * repositories/review-rules.ts), since it depends on the form's state, not on the role.
 * A farmer addressing a row outside their chain gets 404 (see scope.ts), never 403.
 */
import type { Access } from './access';
import { forbidden } from '../domain-errors';

export type WriteAction = 'insert' | 'update' | 'delete' | 'archive';

interface FarmerTableRule {
  insert: boolean;
  /** true = any column; a list = only these columns (and geometry when `geometry` is true). */
  update: boolean | { columns: string[]; geometry: boolean };
  delete: boolean;
}

const FARMER_RULES: Record<string, FarmerTableRule> = {
  paths: { insert: true, update: { columns: ['walk', 'length_m'], geometry: true }, delete: false },
  durationPaths: { insert: true, update: true, delete: false },
  forms: { insert: true, update: true, delete: true },
  indicators: { insert: true, update: true, delete: true },
  // The form's thread: a farmer writes to the adviser (an appeal's reason is a comment too) but
  // does not rewrite or remove what was said; the server sets the author (repositories/review-rules.ts).
  comments: { insert: true, update: false, delete: false },
};

/** Throws 403 unless the caller's role may perform `action` on rows of the table `tableKey`. */
export function assertMayWrite(access: Access, tableKey: string, action: WriteAction): void {
  if (access.role === 'reader') throw forbidden('readers may not change data');
  if (access.role === 'editor') return;
  if (action === 'archive') throw forbidden('only editors archive records');
  const rule = FARMER_RULES[tableKey];
  const allowed = rule ? (action === 'update' ? rule.update !== false : rule[action]) : false;
  if (!allowed) throw forbidden(`farmers may not ${action} records of table ${tableKey}`);
}

/**
 * For farmer updates of tables with a column allow-list: throws 403 naming the first changed
 * column outside it. `changed` are column names whose value differs from the stored one.
 */
export function assertMayChangeColumns(access: Access, tableKey: string, changed: string[], geometryChanged: boolean): void {
  if (access.role !== 'farmer') return;
  const rule = FARMER_RULES[tableKey]?.update;
  if (!rule || rule === true) return;
  const denied = changed.find((name) => !rule.columns.includes(name));
  if (denied) throw forbidden(`farmers may not change column ${denied} of table ${tableKey}`);
  if (geometryChanged && !rule.geometry) throw forbidden(`farmers may not change the geometry of table ${tableKey}`);
}
