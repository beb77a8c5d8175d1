/**
 * features/audit — the editors' "Zgodovina sprememb": every change in the project from the
 * server's history (GET /api/Audit/{projectId}), filtered, paged and downloadable as CSV.
 * app/routes/setup-audit.tsx gives it the project, its tables and the farmers to filter by. A
 * record's own history (`RecordHistory`, the form screen) reads the same trail for one record.
 */
export { AuditScreen } from './audit-screen';
export { RecordHistory } from './record-history';
export { auditFarmers, recordHref } from './audit-links';
