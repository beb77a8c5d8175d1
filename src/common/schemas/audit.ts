/**
 * The wire schema of GET /api/Audit/{projectId} (the editors' audit trail of every change in a
 * project), in TypeBox like the rest of the wire contract: the route validates with these schemas
 * and the types come from them. The client imports only the types.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_MAX_PAGE_SIZE, AUDIT_PAGE_SIZE } from '../constants';
import type { HistoryEntry } from './wire';

const Id = (description?: string) => Type.Integer({ minimum: 1, ...(description ? { description } : {}) });

export const AuditChange = Type.Object({
  /** The column's name (`geometry` for the record's geometry). */
  column: Type.String(),
  old: Type.Unknown(),
  new: Type.Unknown(),
  /** The values by name where they have one (a reference's record, a form kind, an indicator, a state, Da/Ne). */
  oldText: Type.Optional(Type.String()),
  newText: Type.Optional(Type.String()),
});
export type AuditChange = Static<typeof AuditChange>;

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  changedAt: Type.String(),
  /** E-mail (or subject) of the user who made the change. */
  changedBy: Type.Unsafe<string | null>({ type: 'string', nullable: true }),
  action: Type.Unsafe<HistoryEntry['action']>({ type: 'string', enum: ['insert', 'update', 'delete', 'archive', 'unarchive'] }),
  tableId: Type.Integer(),
  /** The table's key (farmers, areas, …). */
  table: Type.String(),
  recordId: Type.Integer(),
  /** The record as an adviser knows it ('Popis kazalnih rastlin na poti · Za hišo – pot 1 · Sezona 2026'), when it can be named. */
  record: Type.Optional(Type.String()),
  changes: Type.Array(AuditChange),
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditPage = Type.Object({ entries: Type.Array(AuditEntry), totalCount: Type.Integer() });
export type AuditPage = Static<typeof AuditPage>;

const filterFields = {
  farmerId: Type.Optional(Id("Only changes of this farmer's record and of every row under it (meadows, paths, forms, indicators).")),
  recordId: Type.Optional(Id('Only changes of this record and of every row under it (a form with its indicators and comments).')),
  tableId: Type.Optional(Id()),
  /** ISO instant, inclusive. */
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Changes at or after this instant.' })),
  /** ISO instant, exclusive. */
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Changes before this instant.' })),
};

/** Query of GET /api/Audit/{projectId}. */
export const AuditQuery = Type.Object(
  {
    ...filterFields,
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: '1-based page number.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_MAX_PAGE_SIZE, default: AUDIT_PAGE_SIZE })),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

/** Query of GET /api/Audit/{projectId}/csv: the filters without the paging. */
export const AuditCsvQuery = Type.Object(filterFields, { additionalProperties: false });
