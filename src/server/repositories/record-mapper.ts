/** Row ↔ wire conversions (snake_case SQL rows to the camelCase wire types of src/common). */
import type { Geometry } from 'geojson';
import type { HistoryEntry, Properties, WireFeature, WireRecord } from '../../common/schemas/wire';
import type { Database, RecordRow } from '../db/types';
import type { Selectable } from 'kysely';

export function parseProperties(text: string): Properties {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Properties) : {};
}

export function rowToRecord(row: RecordRow): WireRecord {
  return rowToRecordWith(row, parseProperties(row.properties));
}

/** rowToRecord of a row whose properties the caller holds parsed (a row it just wrote from them). */
export function rowToRecordWith(row: RecordRow, properties: Properties): WireRecord {
  const record: WireRecord = {
    id: row.id,
    tableId: row.table_id,
    deleted: row.deleted === 1,
    archived: row.archived === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    properties,
  };
  record.geometry = row.geometry ? (JSON.parse(row.geometry) as Geometry) : null;
  return record;
}

/**
 * JSON.stringify(rowToRecord(row)), written from the row's own JSON texts (properties, geometry)
 * instead of parsing them and turning them into JSON again: a bulk call answers with 10,000 of
 * these (a JSON text is valid wherever its value is; the client parses the answer).
 */
export function recordJson(row: RecordRow): string {
  return (
    `{"id":${row.id},"tableId":${row.table_id},"deleted":${row.deleted === 1},"archived":${row.archived === 1},` +
    `"createdAt":${JSON.stringify(row.created_at)},"updatedAt":${JSON.stringify(row.updated_at)},"version":${row.version},` +
    `"properties":${row.properties},"geometry":${row.geometry || 'null'}}`
  );
}

export function recordToFeature(record: WireRecord): WireFeature {
  return {
    type: 'Feature',
    id: record.id,
    tableId: record.tableId,
    deleted: record.deleted,
    archived: record.archived,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    version: record.version,
    geometry: record.geometry ?? null,
    properties: record.properties,
  };
}

export function historyRowToEntry(row: Selectable<Database['record_history']>): HistoryEntry {
  return {
    id: row.id,
    recordId: row.record_id,
    action: row.action,
    changedBy: row.changed_by,
    changedAt: row.changed_at,
    old: row.old_value ? (JSON.parse(row.old_value) as HistoryEntry['old']) : null,
    new: row.new_value ? (JSON.parse(row.new_value) as HistoryEntry['new']) : null,
  };
}
