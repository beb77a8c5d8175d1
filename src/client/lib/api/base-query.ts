/**
 * The one base query of the app. Like fetchBaseQuery, but:
 * - base URL, fetch and credentials come from the store's extra argument (`extra.api`), so tests
 *   and the bench run it against a real server on an ephemeral port and nothing is global;
 * - query strings go through the shared encoder (repeated keys, bracketed keys);
 * - every failure becomes an `ApiError` whose message is from the error catalogue, keeping the
 *   server's `detail` and, for 409, the server's `current` row so a conflict can be shown.
 */
import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import { API_BASE_PATH } from '../../../common/constants';
import { errorMessageForStatus, GENERIC_ERROR, REQUEST_ABORTED, type ApiErrorBody } from '../../../common/errors';
import { withQuery, type QueryValue } from '../../../common/query-string';
import { authorizationHeader, getCredentialsProvider, type CredentialsProvider } from './credentials';

export interface ApiDeps {
  /** Prefix of every request; API_BASE_PATH (same origin) in the browser, an origin in Node. */
  baseUrl?: string;
  fetchFn?: typeof fetch;
  /** Overrides the provider registered with setCredentialsProvider (tests, bench). */
  credentials?: CredentialsProvider;
}

export interface ApiRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** JSON-serialisable value, or FormData for multipart calls. */
  body?: unknown;
  params?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** How to read a successful answer; JSON by default. */
  responseType?: 'json' | 'blob' | 'text';
}

/** 'FETCH_ERROR': no answer (offline, dropped connection); 'ABORTED': cancelled by the app. */
type ApiErrorStatus = number | 'FETCH_ERROR' | 'ABORTED' | 'PARSE_ERROR';

export interface ApiError {
  status: ApiErrorStatus;
  /** Catalogue text ('Bad Request' … 'Generic Error', 'Request aborted'). */
  message: string;
  /** The server's explanation (which field, which id), when it sent one. */
  detail?: string;
  /** 409: the record as the server has it now. */
  current?: unknown;
  /** Bulk calls: the operation that made the server reject the call. */
  opId?: string;
  /** 409 on an insert: the live row that already holds the same unique values (`current` is that row). */
  duplicateOf?: number;
  /**
   * 409 from a form under review (docs/architecture.md, The review loop): the review state that
   * keeps a farmer's edit of the form, its indicators or photos out; `current` is the row they
   * tried to change (the form, for a new indicator).
   */
  reviewState?: string;
  /** 429/503 with a `Retry-After` header: how long the server asked us to wait (ms). */
  retryAfterMs?: number;
}

export interface ApiMeta {
  status?: number;
}

/** Transient failures (no answer, 5xx, 429 "too many requests") are retried later; everything else needs the user. */
export function isTransientError(error: ApiError): boolean {
  return error.status === 'FETCH_ERROR' || error.status === 429 || (typeof error.status === 'number' && error.status >= 500);
}

/**
 * A `Retry-After` header as milliseconds from `now`: delay-seconds ("120") or an HTTP date
 * ("Wed, 21 Oct 2026 07:28:00 GMT"); a date in the past is 0. Undefined when missing or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; anything else ("-5", "1.5") is unreadable, not a date.
  const at = /[A-Za-z]/.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function isFormData(body: unknown): body is FormData {
  return typeof FormData !== 'undefined' && body instanceof FormData;
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: string }).name === 'AbortError';
}

async function readErrorBody(response: Response): Promise<Partial<ApiErrorBody>> {
  try {
    const text = await response.text();
    return text ? (JSON.parse(text) as Partial<ApiErrorBody>) : {};
  } catch {
    return {};
  }
}

/** Performs one request; used by the base query and by code that runs outside RTK Query. */
export async function performRequest(
  deps: ApiDeps | undefined,
  request: ApiRequest,
  signal?: AbortSignal,
): Promise<{ data: unknown; meta: ApiMeta } | { error: ApiError; meta: ApiMeta }> {
  const fetchFn = deps?.fetchFn ?? globalThis.fetch;
  const baseUrl = deps?.baseUrl ?? API_BASE_PATH;
  const url = baseUrl + withQuery(request.url, request.params ?? {});
  const headers: Record<string, string> = { Accept: 'application/json', ...request.headers };
  const credentials = await (deps?.credentials ?? getCredentialsProvider())();
  const authorization = authorizationHeader(credentials);
  if (authorization) headers.Authorization = authorization;
  let body: BodyInit | undefined;
  if (request.body !== undefined) {
    if (isFormData(request.body)) {
      body = request.body; // the browser sets the multipart boundary itself
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
  }
  let response: Response;
  try {
    response = await fetchFn(url, { method: request.method ?? 'GET', headers, body, signal });
  } catch (error) {
    if (isAbort(error) || signal?.aborted) return { error: { status: 'ABORTED', message: REQUEST_ABORTED }, meta: {} };
    return { error: { status: 'FETCH_ERROR', message: GENERIC_ERROR, detail: String(error) }, meta: {} };
  }
  const meta: ApiMeta = { status: response.status };
  if (!response.ok) {
    const errorBody = await readErrorBody(response);
    const error: ApiError = { status: response.status, message: errorMessageForStatus(response.status) };
    if (typeof errorBody.detail === 'string') error.detail = errorBody.detail;
    if (errorBody.current !== undefined) error.current = errorBody.current;
    const opId = (errorBody as { opId?: unknown }).opId;
    if (typeof opId === 'string') error.opId = opId;
    if (typeof errorBody.duplicateOf === 'number') error.duplicateOf = errorBody.duplicateOf;
    const reviewState = (errorBody as { reviewState?: unknown }).reviewState;
    if (typeof reviewState === 'string') error.reviewState = reviewState;
    if (response.status === 429 || response.status === 503) {
      const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), Date.now());
      if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
    }
    return { error, meta };
  }
  try {
    if (request.responseType === 'blob') return { data: await response.blob(), meta };
    const text = await response.text();
    if (request.responseType === 'text') return { data: text, meta };
    return { data: text ? JSON.parse(text) : null, meta };
  } catch (error) {
    if (isAbort(error) || signal?.aborted) return { error: { status: 'ABORTED', message: REQUEST_ABORTED }, meta };
    return { error: { status: 'PARSE_ERROR', message: GENERIC_ERROR, detail: String(error) }, meta };
  }
}

/**
 * The catalogue message for any error a call can end with: an ApiError from the base query, or the
 * error RTK Query reports itself when the app cancelled the request ('Request aborted').
 */
export function errorMessageOf(error: unknown): string {
  if (!error || typeof error !== 'object') return GENERIC_ERROR;
  const e = error as { status?: unknown; message?: unknown; name?: unknown };
  if (e.name === 'AbortError' || e.status === 'ABORTED') return REQUEST_ABORTED;
  if (e.status !== undefined && typeof e.message === 'string') return e.message;
  return GENERIC_ERROR;
}

/** Reads the api deps from the thunk extra argument the store was made with. */
function apiDepsFromExtra(extra: unknown): ApiDeps | undefined {
  return (extra as { api?: ApiDeps } | undefined)?.api;
}

export const appBaseQuery: BaseQueryFn<ApiRequest | string, unknown, ApiError, object, ApiMeta> = async (args, api) => {
  const request = typeof args === 'string' ? { url: args } : args;
  return performRequest(apiDepsFromExtra(api.extra), request, api.signal);
};
