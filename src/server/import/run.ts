/**
 * The import, shared by the HTTP routes (routes/api/import) and the CLI (cli.ts): read a file,
 * suggest or check the mapping, plan, and — on commit — write everything in the caller's one
 * transaction through the bulk writer (the same validation, history, text index and rules as any
 * other write). Commit is all or nothing: any refused row, in any file of the call, throws
 * ImportRefused with the report and the transaction rolls back. Farmers go before meadows, so a
 * meadow can name a farmer the same import creates.
 */
import { withoutOperation } from '../../common/errors';
import { fillText, slSeasonServer } from '../../common/i18n/sl';
import type { ImportReport } from '../../common/schemas/wire';
import { DomainError, invalid } from '../domain-errors';
import { applyBulk } from '../repositories/bulk-writer';
import type { RepoContext } from '../repositories/context';
import { importableColumns, parseMapping, suggestMapping, type Mapping } from './mapping';
import { planAreas, planFarmers, type ImportPlan } from './plan';
import { readCsv } from './read-csv';
import { readGeoFile } from './read-geo';
import type { ImportKind, SourceTable } from './source';

export type { ImportReport };

/** Operations per bulk call of a commit: progress is reported after each. */
const COMMIT_CHUNK = 1000;

export interface ImportFile {
  kind: ImportKind;
  bytes: Uint8Array;
  /** Explicit mapping as JSON text ({source name: column id}); default: suggestMapping. */
  mapping?: string;
}

export interface ImportPreview {
  /** The file's source attributes. */
  columns: string[];
  /** The table's columns an attribute may be mapped to (what the editor picks from). */
  targets: Array<{ id: number; name: string }>;
  suggested: Mapping;
  sample: Array<Record<string, unknown>>;
  crs?: string;
}

/** A commit with refused rows: nothing was written. */
export class ImportRefused extends Error {
  constructor(readonly reports: Partial<Record<ImportKind, ImportReport>>) {
    super('import refused');
  }
}

async function readImportFile(kind: ImportKind, bytes: Uint8Array): Promise<SourceTable> {
  return kind === 'farmers' ? readCsv(bytes) : readGeoFile(bytes);
}

function tableFor(ctx: RepoContext, kind: ImportKind) {
  const table = ctx.schema.tablesByKey.get(kind);
  if (!table) throw invalid(`project ${ctx.schema.id} has no table ${kind}`);
  return table;
}

export async function previewImport(ctx: RepoContext, kind: ImportKind, bytes: Uint8Array): Promise<ImportPreview> {
  const source = await readImportFile(kind, bytes);
  return {
    columns: source.columns,
    targets: importableColumns(kind, tableFor(ctx, kind)).map((c) => ({ id: c.id, name: c.name })),
    suggested: suggestMapping(kind, tableFor(ctx, kind), source.columns),
    sample: source.rows.slice(0, 5).map((row) => row.attributes),
    ...(source.crs ? { crs: source.crs } : {}),
  };
}

function mappingFor(ctx: RepoContext, file: ImportFile, source: SourceTable): Mapping {
  const table = tableFor(ctx, file.kind);
  if (file.mapping === undefined) return suggestMapping(file.kind, table, source.columns);
  try {
    return parseMapping(file.kind, table, source.columns, file.mapping);
  } catch (error) {
    throw invalid((error as Error).message);
  }
}

export interface ImportOptions {
  commit: boolean;
  /** Called as rows are planned and written (CLI progress bar). */
  progress?: (done: number, total: number) => void;
}

/**
 * Plans (and with `commit`, writes) up to one farmers and one areas file. `ctx.db` must be a
 * transaction when committing. Answers one report per file; throws ImportRefused on a commit
 * with refused rows.
 */
export async function runImport(ctx: RepoContext, files: ImportFile[], options: ImportOptions): Promise<Partial<Record<ImportKind, ImportReport>>> {
  const sources = new Map<ImportKind, { source: SourceTable; mapping: Mapping }>();
  for (const file of files) {
    const source = await readImportFile(file.kind, file.bytes);
    sources.set(file.kind, { source, mapping: mappingFor(ctx, file, source) });
  }
  const total = [...sources.values()].reduce((n, s) => n + s.source.rows.length, 0) * (options.commit ? 2 : 1);
  let done = 0;
  const step = (n: number) => {
    done += n;
    options.progress?.(done, total);
  };

  const reports: Partial<Record<ImportKind, ImportReport>> = {};
  let refused = false;
  const farmers = sources.get('farmers');
  let pendingFarmers = new Set<string>();
  if (farmers) {
    const plan = await planFarmers(ctx, farmers.source, farmers.mapping);
    step(farmers.source.rows.length);
    reports.farmers = plan.report;
    refused ||= plan.report.refused > 0;
    if (options.commit && !refused) await commitPlan(ctx, plan, 'farmers', reports, step);
    pendingFarmers = new Set(plan.report.rows.filter((r) => r.action !== 'refuse' && r.key).map((r) => r.key!));
  }
  const areas = sources.get('areas');
  if (areas) {
    // After a committed farmers file its farmers exist in this transaction; otherwise they are pending.
    const plan = await planAreas(ctx, areas.source, areas.mapping, options.commit && !refused ? new Set() : pendingFarmers);
    step(areas.source.rows.length);
    reports.areas = plan.report;
    refused ||= plan.report.refused > 0;
    if (options.commit && !refused) await commitPlan(ctx, plan, 'areas', reports, step);
  }
  if (options.commit && refused) throw new ImportRefused(reports);
  return reports;
}

/** Writes a plan in chunks; a write the plan did not foresee (a race) refuses its row and the whole import. */
async function commitPlan(
  ctx: RepoContext,
  plan: ImportPlan,
  kind: ImportKind,
  reports: Partial<Record<ImportKind, ImportReport>>,
  step: (n: number) => void,
): Promise<void> {
  for (let i = 0; i < plan.operations.length; i += COMMIT_CHUNK) {
    const chunk = plan.operations.slice(i, i + COMMIT_CHUNK);
    try {
      await applyBulk(ctx, chunk);
    } catch (error) {
      const opId = error instanceof DomainError ? error.extra?.opId : undefined;
      const row = opId === undefined ? undefined : plan.rowOf.get(opId);
      if (row === undefined || !(error instanceof DomainError)) throw error;
      const entry = plan.report.rows.find((r) => r.row === row)!;
      if (entry.action === 'create') plan.report.created -= 1;
      else plan.report.updated -= 1;
      entry.action = 'refuse';
      // The writer's detail names the operation first; the row number says it here.
      entry.reason = withoutOperation(error.detail ?? error.message);
      plan.report.refused += 1;
      reports[kind] = plan.report;
      throw new ImportRefused(reports);
    }
    step(chunk.length);
  }
}

/** The Slovenian refusal text of a commit that wrote nothing. */
export function refusedMessage(reports: Partial<Record<ImportKind, ImportReport>>): string {
  const count = Object.values(reports).reduce((n, r) => n + (r?.refused ?? 0), 0);
  return fillText(slSeasonServer.import.refusedRows, { count });
}
