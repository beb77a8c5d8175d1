/**
 * The change history of the exported forms (the server's trail of each form with its indicators
 * and comments, GET /api/Audit/{projectId}?recordId=), a few requests at a time instead of one
 * after the other: hundreds of forms of all farmers would otherwise take
 * minutes. The first failure stops new requests and fails the export (a file without part of its
 * history would look complete).
 */
import { AUDIT_MAX_PAGE_SIZE } from '../../../common/constants';
import type { AuditEntry } from '../../../common/schemas/audit';
import type { AppConfig } from '../../../common/schemas/config';
import type { AppDispatch } from '../../app/store-types';
import { auditApi } from '../../lib/api/audit';
import { isLocalId } from '../../../common/record-id';
import { historyText } from './results-model';

/** How many history requests run at once during an export. */
const HISTORY_CONCURRENCY = 6;

/**
 * Runs `fn` over `items` with at most `limit` calls under way; results in the order of `items`.
 * `onProgress(done, total)` after each finished call. Rejects with the first error (no new calls
 * start after it).
 */
export async function mapWithLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  onProgress?: (done: number, total: number) => void,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let done = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
      done += 1;
      onProgress?.(done, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/** Every entry of one form's trail, newest first, page by page. */
async function trailOf(dispatch: AppDispatch, projectId: number, recordId: number): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (let page = 1; ; page += 1) {
    const result = await dispatch(
      auditApi.endpoints.auditPage.initiate({ projectId, recordId, page, perPage: AUDIT_MAX_PAGE_SIZE }, { subscribe: false, forceRefetch: true }),
    );
    if (result.error || !result.data) throw new Error('history failed');
    entries.push(...result.data.entries);
    if (result.data.entries.length === 0 || entries.length >= result.data.totalCount) return entries;
  }
}

export interface HistoryForm {
  formId: number;
  updatedAt: string;
}

/**
 * History text per form id (offline-made forms have none on the server and are skipped). `cache`
 * keeps texts between exports, keyed by form id and its last change, so the GeoJSON after the
 * CSV asks again only for forms that changed since.
 */
export async function fetchFormHistories(
  dispatch: AppDispatch,
  config: AppConfig,
  forms: readonly HistoryForm[],
  options: { cache?: Map<string, string>; concurrency?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<Map<number, string>> {
  const unique = [...new Map(forms.filter((f) => !isLocalId(f.formId)).map((f) => [f.formId, f])).values()];
  options.onProgress?.(0, unique.length);
  const texts = await mapWithLimit(
    unique,
    options.concurrency ?? HISTORY_CONCURRENCY,
    async (form) => {
      const key = `${form.formId}:${form.updatedAt}`;
      const cached = options.cache?.get(key);
      if (cached !== undefined) return cached;
      const text = historyText(await trailOf(dispatch, config.projectId, form.formId));
      options.cache?.set(key, text);
      return text;
    },
    options.onProgress,
  );
  return new Map(unique.map((f, i) => [f.formId, texts[i]!]));
}
