/**
 * The change history of the exported forms (GET …/detailed per form), a few requests
 * at a time instead of one after the other: hundreds of forms of all farmers would otherwise take
 * minutes. The first failure stops new requests and fails the export (a file without part of its
 * history would look complete).
 */
import type { AppConfig } from '../../../common/schemas/config';
import type { DetailedFeature } from '../../../common/schemas/wire';
import type { AppDispatch } from '../../app/store-types';
import { featuresApi } from '../../lib/api/features';
import { nextReadNo } from '../../lib/api/read-no';
import { isLocalId } from '../../../common/record-id';
import { historyText } from './results-model';

/** How many history requests run at once during an export. */
const HISTORY_CONCURRENCY = 6;

/**
 * Runs `fn` over `items` with at most `limit` calls under way; results in the order of `items`.
 * `onProgress(done, total)` after each finished call. Rejects with the first error (no new calls
 * start after it).
 */
export async function mapWithLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>, onProgress?: (done: number, total: number) => void): Promise<R[]> {
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
  const names = new Map<string, string>(Object.entries(config.tables.forms.columns).map(([name, id]) => [String(id), name]));
  const unique = [...new Map(forms.filter((f) => !isLocalId(f.formId)).map((f) => [f.formId, f])).values()];
  options.onProgress?.(0, unique.length);
  const texts = await mapWithLimit(
    unique,
    options.concurrency ?? HISTORY_CONCURRENCY,
    async (form) => {
      const key = `${form.formId}:${form.updatedAt}`;
      const cached = options.cache?.get(key);
      if (cached !== undefined) return cached;
      const result = await dispatch(featuresApi.endpoints.featureDetailed.initiate({ projectId: config.projectId, tableId: config.tables.forms.id, recordId: form.formId, readNo: nextReadNo() }, { subscribe: false, forceRefetch: true }));
      if (result.error || !result.data) throw new Error('history failed');
      const text = historyText((result.data as DetailedFeature).history ?? [], names);
      options.cache?.set(key, text);
      return text;
    },
    options.onProgress,
  );
  return new Map(unique.map((f, i) => [f.formId, texts[i]!]));
}
