/**
 * One record's "Zgodovina sprememb" (the form screen, for editors): the record's changes and those
 * of the rows under it (a form's indicators and comments), newest first, from the server's trail
 * (GET /api/Audit/{projectId}?recordId=). Each change names what an adviser knows — the plant, the
 * farmer, the state — as the audit screen does, never a bare id. Online only; a record the outbox
 * has not delivered yet has no server history.
 */
import { AUDIT_PAGE_SIZE } from '../../../common/constants';
import { formatDateTime } from '../../../common/format';
import { changeText } from '../../../common/history-diff';
import { slAudit } from '../../../common/i18n/sl';
import { isLocalId } from '../../../common/record-id';
import { useAuditPageQuery } from '../../lib/api/audit';

interface RecordHistoryProps {
  projectId: number;
  recordId: number;
  online: boolean;
}

export function RecordHistory({ projectId, recordId, online }: RecordHistoryProps) {
  const t = slAudit.recordHistory;
  const notDelivered = isLocalId(recordId);
  const result = useAuditPageQuery({ projectId, recordId, perPage: AUDIT_PAGE_SIZE }, { skip: !online || notDelivered });
  if (notDelivered) return <p className="muted">{t.notYetSent}</p>;
  if (!online) return <p className="muted">{slAudit.onlineOnly}</p>;
  if (result.isError) return <p role="alert">{slAudit.failed}</p>;
  if (!result.data) return <p className="muted">{t.loading}</p>;
  const { entries, totalCount } = result.data;
  if (entries.length === 0) return <p className="muted">{t.empty}</p>;
  return (
    <>
      <ol className="history__list" data-testid="record-history">
        {entries.map((e) => (
          <li key={e.id}>
            <span className="history__head">{t.entry(formatDateTime(e.changedAt), e.changedBy ?? slAudit.unknownUser, slAudit.actions[e.action])}</span>
            {/* A row under the record (an indicator, a comment) is named; the record's own changes need no name. */}
            {e.recordId !== recordId && e.record ? <span className="history__record"> · {e.record}</span> : null}
            {e.changes.length ? (
              <ul className="history__changes">
                {e.changes.map((c) => (
                  <li key={c.column}>{changeText(c)}</li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
      {totalCount > entries.length ? <p className="muted">{t.more(entries.length, totalCount)}</p> : null}
    </>
  );
}
