/**
 * "Zgodovina sprememb": every change in the project, newest first, a page at a time from the
 * server, filtered by farmer, table and days; the whole selection downloads as CSV. Online only
 * (the server holds the trail). On phones each change is a card, on wider screens a table row
 * (the shared `data-table` styles).
 */
import { useId, useState, type ReactNode } from 'react';
import { AUDIT_PAGE_SIZE } from '../../../common/constants';
import { slAudit } from '../../../common/i18n/sl';
import type { AuditQuery } from '../../../common/schemas/audit';
import type { TablesConfig } from '../../../common/schemas/config';
import { TABLE_KEYS } from '../../../common/schemas/project';
import { formatDateTime } from '../../../common/format';
import { changeTableLabel, changeText } from '../../../common/history-diff';
import { Button } from '../../components/button/button';
import { BackIcon, ChevronRightIcon, DownloadIcon } from '../../components/icons/icons';
import { Loading } from '../../components/loading/loading';
import { OfflineNote } from '../../components/screen-state/screen-state';
import type { ApiError } from '../../lib/api/base-query';
import { downloadFile } from '../../lib/download-file';
import { useAuditCsvMutation, useAuditPageQuery } from '../../lib/api/audit';
import { dayWindow } from './audit-model';

interface AuditScreenProps {
  projectId: number;
  tables: TablesConfig;
  /** The farmers the editor sees, by name. */
  farmers: ReadonlyArray<{ id: number; name: string }>;
  online: boolean;
  /** The address of a changed record's screen (by its table's key), when it has one. */
  recordHref?: (table: string, recordId: number) => string | undefined;
}

interface Filters {
  farmerId: string;
  tableId: string;
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { farmerId: '', tableId: '', from: '', to: '' };

function failureText(error: unknown, fallback: string): string {
  const e = error as ApiError | undefined;
  return e?.detail ?? fallback;
}

function serverQuery(f: Filters): AuditQuery {
  return {
    ...(f.farmerId ? { farmerId: Number(f.farmerId) } : {}),
    ...(f.tableId ? { tableId: Number(f.tableId) } : {}),
    ...dayWindow(f.from, f.to),
  };
}

/** A label and its control side by side in the DOM, so the control's name is the label alone. */
function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

export function AuditScreen({ projectId, tables, farmers, online, recordHref }: AuditScreenProps) {
  const t = slAudit;
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [csvError, setCsvError] = useState<string | null>(null);
  const id = useId();
  const badRange = Boolean(filters.from && filters.to && filters.from > filters.to);
  const query = { projectId, ...serverQuery(filters) };
  const result = useAuditPageQuery({ ...query, page, perPage: AUDIT_PAGE_SIZE }, { skip: !online || badRange });
  const [fetchCsv, csv] = useAuditCsvMutation();
  const set = (name: keyof Filters) => (value: string) => {
    setFilters((f) => ({ ...f, [name]: value }));
    setPage(1);
  };
  const onCsv = async () => {
    setCsvError(null);
    const file = await fetchCsv(query);
    if (file.error) return setCsvError(failureText(file.error, t.downloadFailed));
    downloadFile(`${t.fileName}-${new Date().toISOString().slice(0, 10)}.csv`, file.data);
  };

  const data = result.currentData;
  const pages = data ? Math.max(1, Math.ceil(data.totalCount / AUDIT_PAGE_SIZE)) : 1;

  return (
    <div className="audit">
      <section className="card audit__filters" aria-labelledby={`${id}-heading`}>
        <h2 id={`${id}-heading`}>{t.filters}</h2>
        <div className="audit__fields">
          <Field id={`${id}-farmer`} label={t.farmer}>
            <select id={`${id}-farmer`} name="farmerId" value={filters.farmerId} onChange={(e) => set('farmerId')(e.target.value)}>
              <option value="">{t.allFarmers}</option>
              {farmers.map((f) => (
                <option key={f.id} value={String(f.id)}>
                  {f.name}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-table`} label={t.table}>
            <select id={`${id}-table`} name="tableId" value={filters.tableId} onChange={(e) => set('tableId')(e.target.value)}>
              <option value="">{t.allTables}</option>
              {TABLE_KEYS.map((key) => (
                <option key={key} value={String(tables[key].id)}>
                  {changeTableLabel(key)}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-from`} label={t.from}>
            <input type="date" id={`${id}-from`} name="from" value={filters.from} max={filters.to || undefined} onChange={(e) => set('from')(e.target.value)} />
          </Field>
          <Field id={`${id}-to`} label={t.to}>
            <input type="date" id={`${id}-to`} name="to" value={filters.to} min={filters.from || undefined} onChange={(e) => set('to')(e.target.value)} />
          </Field>
        </div>
        <Button
          kind="secondary"
          icon={DownloadIcon}
          text={csv.isLoading ? t.downloading : t.downloadCsv}
          disabled={!online || badRange || csv.isLoading}
          onClick={() => void onCsv()}
        />
        {csvError ? <p role="alert">{csvError}</p> : null}
      </section>

      {!online ? (
        <OfflineNote text={t.onlineOnly} />
      ) : badRange ? (
        <p role="alert">{t.invalid.range}</p>
      ) : result.isError ? (
        <p role="alert">{failureText(result.error, t.failed)}</p>
      ) : !data ? (
        <Loading />
      ) : data.entries.length === 0 ? (
        <p role="status">{t.noChanges}</p>
      ) : (
        <>
          <p role="status" className="audit__total">
            {t.total(data.totalCount)}
          </p>
          <table className="data-table audit__table" aria-busy={result.isFetching}>
            <caption className="visually-hidden">{t.title}</caption>
            <thead>
              <tr>
                <th scope="col">{t.when}</th>
                <th scope="col">{t.who}</th>
                <th scope="col">{t.action}</th>
                <th scope="col">{t.table}</th>
                <th scope="col">{t.record}</th>
                <th scope="col">{t.changes}</th>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((e) => (
                <tr key={e.id} data-testid="audit-entry">
                  <th scope="row" data-label={t.when}>
                    <time dateTime={e.changedAt}>{formatDateTime(e.changedAt)}</time>
                  </th>
                  <td data-label={t.who}>{e.changedBy ?? t.unknownUser}</td>
                  <td data-label={t.action}>{t.actions[e.action]}</td>
                  <td data-label={t.table}>{changeTableLabel(e.table)}</td>
                  <td data-label={t.record}>{linkTo(recordHref?.(e.table, e.recordId), e.record ?? e.recordId)}</td>
                  <td data-label={t.changes} className="audit__changes">
                    {e.changes.length ? (
                      <ul>
                        {e.changes.map((c) => (
                          <li key={c.column}>{changeText(c)}</li>
                        ))}
                      </ul>
                    ) : (
                      t.empty
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav className="audit__paging" aria-label={t.paging}>
            <Button kind="ghost" icon={BackIcon} text={t.previous} disabled={page <= 1 || result.isFetching} onClick={() => setPage((p) => p - 1)} />
            <span>{t.pageOf(page, pages)}</span>
            <Button
              kind="ghost"
              icon={ChevronRightIcon}
              iconEnd
              text={t.next}
              disabled={page >= pages || result.isFetching}
              onClick={() => setPage((p) => p + 1)}
            />
          </nav>
        </>
      )}
    </div>
  );
}

function linkTo(href: string | undefined, text: number | string) {
  return href ? <a href={href}>{text}</a> : text;
}
