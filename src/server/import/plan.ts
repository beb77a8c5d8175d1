/**
 * Turns the rows of an import file into a report and the bulk operations that carry it out.
 * Each row is created, updated (matched by KMG-MID for farmers and GERK-PID for meadows, among
 * the project's rows that are not deleted — re-importing a file updates in place) or refused with
 * a Slovenian reason: missing key, the key twice in the file, a value of the wrong type, a bad
 * e-mail or one another farmer has, a missing, unreadable, self-intersecting or unreprojectable
 * geometry, an unknown farmer. The same checks the writers make (record-rules.ts, geometry.ts)
 * are used, so a planned row that the commit then refuses is a race, not a difference in rules.
 */
import { randomUUID } from 'node:crypto';
import type { Geometry } from 'geojson';
import { fillText, slSeasonServer } from '../../common/i18n/sl';
import type { BulkOperation, ImportReport, Properties } from '../../common/schemas/wire';
import { DomainError, invalid } from '../domain-errors';
import type { RepoContext } from '../repositories/context';
import { normalizeGeometry } from '../repositories/geometry';
import type { ColumnInfo, TableInfo } from '../project-schema';
import { parseProperties } from '../repositories/record-mapper';
import { EMAIL, meadowAreaHa } from '../repositories/record-rules';
import type { Mapping } from './mapping';
import type { ImportKind, SourceTable } from './source';

const t = slSeasonServer.import;

export interface ImportPlan {
  report: ImportReport;
  /** Bulk operations of the rows to create or update; `rowOf` maps an opId back to its report row. */
  operations: BulkOperation[];
  rowOf: Map<string, number>;
}

class Refusal extends Error {}

/** Spelling of the key columns in reasons. */
const KEY_LABEL = { kmg_mid: 'KMG-MID', gerk_pid: 'GERK-PID', email: 'E-pošta' } as const;

const TYPE_LABEL: Record<string, string> = { number: 'število', boolean: 'da/ne', date: 'datum', text: 'besedilo', reference: 'KMG-MID' };

/** A source value as the column's type wants it; undefined for an empty cell (left as it is). */
function convert(column: ColumnInfo, raw: unknown): unknown {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'string' && raw.trim() === '') return undefined;
  const wrong = () => new Refusal(fillText(t.wrongType, { column: column.name, value: String(raw), type: TYPE_LABEL[column.type] ?? column.type }));
  switch (column.type) {
    case 'text':
    case 'reference':
      if (typeof raw === 'string') return raw.trim();
      if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
      throw wrong();
    case 'number': {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.trim().replace(',', '.')) : NaN;
      if (!Number.isFinite(n)) throw wrong();
      return n;
    }
    case 'boolean': {
      const text = String(raw).trim().toLowerCase();
      if (['true', '1', 'da', 'yes'].includes(text)) return true;
      if (['false', '0', 'ne', 'no'].includes(text)) return false;
      throw wrong();
    }
    case 'date': {
      const text = String(raw).trim();
      const si = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})$/.exec(text);
      const iso = si ? `${si[3]}-${si[2]!.padStart(2, '0')}-${si[1]!.padStart(2, '0')}` : text;
      if (!/^\d{4}-\d{2}-\d{2}/.test(iso) || Number.isNaN(Date.parse(iso))) throw wrong();
      return iso;
    }
    default:
      return raw;
  }
}

/** The project's rows of a table that are not deleted, keyed by a text column's value. */
async function existingBy(ctx: RepoContext, table: TableInfo, columnName: string): Promise<Map<string, { id: number; props: Properties }>> {
  const column = table.columnsByName.get(columnName);
  const rows = await ctx.db
    .selectFrom('records')
    .select(['id', 'properties'])
    .where('project_id', '=', ctx.schema.id)
    .where('table_id', '=', table.id)
    .where('deleted', '=', 0)
    .orderBy('id')
    .execute();
  const found = new Map<string, { id: number; props: Properties }>();
  for (const row of rows) {
    const props = parseProperties(row.properties);
    const value = column ? props[String(column.id)] : undefined;
    const key = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
    if (key && !found.has(key)) found.set(key, { id: row.id, props });
  }
  return found;
}

function tableOfKind(ctx: RepoContext, kind: ImportKind): TableInfo {
  const table = ctx.schema.tablesByKey.get(kind);
  if (!table) throw invalid(`project ${ctx.schema.id} has no table ${kind}`);
  return table;
}

interface RowDraft {
  props: Properties;
  /** Source value of the column mapped to areas.user (a KMG-MID). */
  owner?: string;
}

function mapRow(table: TableInfo, mapping: Mapping, attributes: Record<string, unknown>): RowDraft {
  const draft: RowDraft = { props: {} };
  for (const [source, columnId] of Object.entries(mapping)) {
    if (columnId === null) continue;
    const column = table.columnsById.get(columnId)!;
    const value = convert(column, attributes[source]);
    if (value === undefined) continue;
    if (column.type === 'reference') draft.owner = value as string;
    else draft.props[String(columnId)] = value;
  }
  return draft;
}

class PlanBuilder {
  readonly report: ImportReport = { created: 0, updated: 0, refused: 0, rows: [] };
  readonly operations: BulkOperation[] = [];
  readonly rowOf = new Map<string, number>();
  private readonly batch = `import-${randomUUID()}`;

  refuse(row: number, reason: string, key?: string): void {
    this.report.refused += 1;
    this.report.rows.push({ row, action: 'refuse', reason, ...(key !== undefined ? { key } : {}) });
  }

  add(row: number, key: string, table: TableInfo, existing: number | undefined, properties: Properties, geometry?: Geometry): void {
    const opId = `${this.batch}-${row}`;
    this.rowOf.set(opId, row);
    const extra = geometry ? { geometry } : {};
    if (existing === undefined) {
      this.report.created += 1;
      this.operations.push({ opId, kind: 'insert', tableId: table.id, properties, ...extra });
    } else {
      this.report.updated += 1;
      this.operations.push({ opId, kind: 'update', tableId: table.id, id: existing, properties, ...extra });
    }
    this.report.rows.push({ row, action: existing === undefined ? 'create' : 'update', key });
  }

  build(): ImportPlan {
    return { report: this.report, operations: this.operations, rowOf: this.rowOf };
  }
}

/** Farmers, matched by KMG-MID. */
export async function planFarmers(ctx: RepoContext, source: SourceTable, mapping: Mapping): Promise<ImportPlan> {
  const table = tableOfKind(ctx, 'farmers');
  const kmgKey = String(table.columnsByName.get('kmg_mid')?.id);
  const emailKey = String(table.columnsByName.get('email')?.id);
  const byKmg = await existingBy(ctx, table, 'kmg_mid');
  const emailOwner = new Map<string, string>();
  for (const [kmg, farmer] of byKmg) {
    const email = farmer.props[emailKey];
    if (typeof email === 'string' && email.trim()) emailOwner.set(email.trim().toLowerCase(), kmg);
  }
  // Farmers without a KMG-MID still own their e-mail.
  const others = await existingBy(ctx, table, 'email');
  for (const [email] of others) if (!emailOwner.has(email.toLowerCase())) emailOwner.set(email.toLowerCase(), '');
  const plan = new PlanBuilder();
  const seenKmg = new Map<string, number>();
  const seenEmail = new Map<string, number>();
  source.rows.forEach((sourceRow, index) => {
    const row = index + 1;
    let key: string | undefined;
    try {
      const { props } = mapRow(table, mapping, sourceRow.attributes);
      key = props[kmgKey] as string | undefined;
      if (!key) throw new Refusal(fillText(t.missingKey, { column: KEY_LABEL.kmg_mid }));
      const first = seenKmg.get(key);
      if (first !== undefined) throw new Refusal(fillText(t.duplicateInFile, { column: KEY_LABEL.kmg_mid, value: key, first }));
      seenKmg.set(key, row);
      const email = props[emailKey] as string | undefined;
      if (email !== undefined) {
        if (!EMAIL.test(email)) throw new Refusal(fillText(slSeasonServer.rules.farmerEmailInvalid, { email }));
        const lower = email.toLowerCase();
        const firstEmail = seenEmail.get(lower);
        if (firstEmail !== undefined) throw new Refusal(fillText(t.duplicateInFile, { column: KEY_LABEL.email, value: email, first: firstEmail }));
        seenEmail.set(lower, row);
        const owner = emailOwner.get(lower);
        if (owner !== undefined && owner !== key)
          throw new Refusal(fillText(slSeasonServer.rules.farmerEmailTaken, { email, name: owner ? `KMG-MID ${owner}` : email }));
      }
      plan.add(row, key, table, byKmg.get(key)?.id, props);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      plan.refuse(row, error.message, key);
    }
  });
  return plan.build();
}

/**
 * Meadows, matched by GERK-PID and linked to their farmer by KMG-MID: a farmer of the project, or
 * one of `pendingFarmers` (KMG-MIDs the farmers file of the same import creates, in a dry run).
 */
export async function planAreas(ctx: RepoContext, source: SourceTable, mapping: Mapping, pendingFarmers: ReadonlySet<string> = new Set()): Promise<ImportPlan> {
  const table = tableOfKind(ctx, 'areas');
  const farmers = tableOfKind(ctx, 'farmers');
  const gerkKey = String(table.columnsByName.get('gerk_pid')?.id);
  const userKey = String(table.columnsByName.get('user')?.id);
  const byGerk = await existingBy(ctx, table, 'gerk_pid');
  const farmerByKmg = await existingBy(ctx, farmers, 'kmg_mid');
  const plan = new PlanBuilder();
  const seenGerk = new Map<string, number>();
  source.rows.forEach((sourceRow, index) => {
    const row = index + 1;
    let key: string | undefined;
    try {
      const { props, owner } = mapRow(table, mapping, sourceRow.attributes);
      key = props[gerkKey] as string | undefined;
      if (!key) throw new Refusal(fillText(t.missingKey, { column: KEY_LABEL.gerk_pid }));
      const first = seenGerk.get(key);
      if (first !== undefined) throw new Refusal(fillText(t.duplicateInFile, { column: KEY_LABEL.gerk_pid, value: key, first }));
      seenGerk.set(key, row);
      if (sourceRow.geometryError) throw new Refusal(sourceRow.geometryError);
      if (!sourceRow.geometry) throw new Refusal(t.noGeometry);
      let geometry: Geometry;
      try {
        geometry = normalizeGeometry(sourceRow.geometry, 'geometry')!;
        meadowAreaHa(geometry);
      } catch (error) {
        if (error instanceof DomainError) throw new Refusal(fillText(t.badGeometry, { reason: error.detail ?? error.message }));
        throw error;
      }
      if (!owner) throw new Refusal(fillText(t.missingKey, { column: KEY_LABEL.kmg_mid }));
      const farmer = farmerByKmg.get(owner);
      if (!farmer && !pendingFarmers.has(owner)) throw new Refusal(fillText(t.missingFarmer, { kmgMid: owner }));
      // In a dry run a farmer of the same import has no id yet; the commit plans against the written rows.
      if (farmer) props[userKey] = farmer.id;
      plan.add(row, key, table, byGerk.get(key)?.id, props, geometry);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      plan.refuse(row, error.message, key);
    }
  });
  return plan.build();
}
