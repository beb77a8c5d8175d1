/**
 * Which source attribute fills which column. Without an explicit mapping, an attribute whose name
 * matches a column's name or one of its Slovenian labels (case, spaces, `_`, `-` and `.` ignored)
 * maps to it. For meadows the owner is given by the farmer's KMG-MID: an attribute mapped to the
 * `user` column holds a KMG-MID, looked up among the farmers. `area_ha` is always computed from
 * the boundary, never imported.
 */
import { fillText, slSeasonServer } from '../../common/i18n/sl';
import type { TableInfo } from '../project-schema';
import type { ImportKind } from './source';

/** Source attribute name → column id (null: not imported). */
export type Mapping = Record<string, number | null>;

/** Column name → the spellings that map to it (besides the name itself). */
const LABELS: Record<ImportKind, Record<string, string[]>> = {
  farmers: {
    name: ['ime', 'ime in priimek', 'priimek in ime', 'naziv', 'nosilec', 'kmet'],
    email: ['e-mail', 'e-pošta', 'eposta', 'e-naslov', 'elektronska pošta', 'mail'],
    phone: ['telefon', 'tel', 'gsm', 'mobitel', 'telefonska številka'],
    kmg_mid: ['kmg-mid', 'kmgmid', 'mid', 'kmg'],
  },
  areas: {
    name: ['ime', 'naziv', 'travnik', 'ime travnika'],
    gerk_pid: ['gerk-pid', 'gerkpid', 'gerk', 'pid'],
    // The owner is named by the farmer's KMG-MID.
    user: ['kmg_mid', 'kmg-mid', 'kmgmid', 'mid', 'kmg', 'kmet', 'lastnik'],
  },
};

/** Columns the import never writes: computed ones. */
const COMPUTED = new Set(['area_ha']);

const normalise = (name: string) =>
  name
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\s_.-]+/g, '');

/** The columns an import of `kind` may fill. */
export function importableColumns(kind: ImportKind, table: TableInfo) {
  return table.columns.filter((c) => !COMPUTED.has(c.name) && (kind === 'farmers' || c.type !== 'reference' || c.name === 'user'));
}

export function suggestMapping(kind: ImportKind, table: TableInfo, sourceColumns: readonly string[]): Mapping {
  const byName = new Map<string, number>();
  for (const column of importableColumns(kind, table)) {
    for (const spelling of [column.name, ...(LABELS[kind][column.name] ?? [])]) {
      if (!byName.has(normalise(spelling))) byName.set(normalise(spelling), column.id);
    }
  }
  const used = new Set<number>();
  const mapping: Mapping = {};
  for (const source of sourceColumns) {
    const id = byName.get(normalise(source));
    // The first attribute that matches a column takes it.
    mapping[source] = id !== undefined && !used.has(id) ? id : null;
    if (id !== undefined) used.add(id);
  }
  return mapping;
}

/** Checks a mapping given by the client (JSON text): known source names, importable column ids, each column once. */
export function parseMapping(kind: ImportKind, table: TableInfo, sourceColumns: readonly string[], text: string): Mapping {
  const invalid = (reason: string) => new Error(fillText(slSeasonServer.import.mappingInvalid, { reason }));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('ni veljaven JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('pričakovan je objekt {izvorni stolpec: id stolpca}');
  const allowed = new Set(importableColumns(kind, table).map((c) => c.id));
  const known = new Set(sourceColumns);
  const used = new Set<number>();
  const mapping: Mapping = Object.fromEntries(sourceColumns.map((name) => [name, null]));
  for (const [source, target] of Object.entries(value as Record<string, unknown>)) {
    if (!known.has(source)) throw invalid(`stolpca »${source}« ni v datoteki`);
    if (target === null) continue;
    if (typeof target !== 'number' || !allowed.has(target)) throw invalid(`»${source}«: ${JSON.stringify(target)} ni stolpec, ki ga lahko uvozim`);
    if (used.has(target)) throw invalid(`stolpec ${target} je izbran dvakrat`);
    used.add(target);
    mapping[source] = target;
  }
  return mapping;
}
