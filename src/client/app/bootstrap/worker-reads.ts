/**
 * The early reads' last two waves (early-reads.ts), run in a worker (early-reads-worker.ts): the
 * forms under the season's links, then the forms' indicators and comments, each wave as soon as
 * the answer before it is in. Plain fetches and string work only: the requests come built (the
 * later ones as templates whose placeholder becomes the forms' ids), so nothing of the app is
 * loaded in the worker.
 */
import type { WireRecord } from '../../../common/schemas/wire';
import type { EarlyAnswer, EarlyRequest } from '../../lib/api/early-answers';

/** What the page hands over. */
export interface WorkerReads {
  forms: EarlyRequest;
  /** Asked once the forms are in: the placeholder in each body becomes the forms' ids, ascending. */
  underForms: EarlyRequest[];
  placeholder: string;
}

/** What the worker tells the page: a request it sends now, and its answer (null: failed). */
export type WorkerReport = { kind: 'asked'; request: EarlyRequest } | { kind: 'answered'; request: EarlyRequest; answer: EarlyAnswer | null };

async function ask(fetchFn: typeof fetch, request: EarlyRequest): Promise<EarlyAnswer | null> {
  try {
    const response = await fetchFn(request.url, { method: request.init.method ?? 'GET', headers: request.init.headers, body: request.init.body });
    return response.ok ? { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() } : null;
  } catch {
    return null;
  }
}

/** A search answer that holds every row of the search (one page); else null. */
export function wholeAnswer(value: unknown): WireRecord[] | null {
  const page = value as { records?: unknown; totalCount?: unknown } | null;
  if (!page || !Array.isArray(page.records) || typeof page.totalCount !== 'number') return null;
  return page.records.length >= page.totalCount ? (page.records as WireRecord[]) : null;
}

/** The ids of a whole search answer, ascending; else null. */
function wholeIds(answer: EarlyAnswer | null): number[] | null {
  try {
    const ids = wholeAnswer(answer ? JSON.parse(answer.text) : null)?.map((row) => row.id as unknown);
    return ids?.every((id): id is number => typeof id === 'number') ? ids.sort((a, b) => a - b) : null;
  } catch {
    return null;
  }
}

/** Asks the forms, then what is under them; reports each request as it leaves and each answer. */
export async function readUnderLinks(data: WorkerReads, report: (message: WorkerReport) => void, fetchFn: typeof fetch): Promise<void> {
  const forms = await ask(fetchFn, data.forms);
  const ids = wholeIds(forms);
  const under = ids?.length
    ? data.underForms.map((request) => ({ ...request, init: { ...request.init, body: request.init.body?.replace(data.placeholder, JSON.stringify(ids)) } }))
    : [];
  // Announced before the forms' answer: the page keeps their places before the app can ask for them.
  for (const request of under) report({ kind: 'asked', request });
  report({ kind: 'answered', request: data.forms, answer: forms });
  await Promise.all(under.map(async (request) => report({ kind: 'answered', request, answer: await ask(fetchFn, request) })));
}
