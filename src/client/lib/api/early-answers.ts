/**
 * Requests sent before the app's code has arrived, and a fetch that hands their answers to the
 * app's first identical requests: the data travels while the JavaScript downloads instead of after
 * it (render-as-you-fetch). Like a `<link rel="preload">`, for requests a preload cannot make
 * (POST searches, an Authorization header).
 *
 * A request is identical when its method, URL, body and the user it is asked for are: the user of
 * a bearer token is its issuer and subject, so the token the sign-in session renews while the
 * scripts start (a new token of the same user) still takes the answers asked with the old one;
 * any other Authorization header must be the same. Each answer serves once; only successful ones
 * serve (anything else — an expired token, a server error — is asked again by the app, whose own
 * handling then applies).
 *
 * An early answer is older than the app's request for it: a reader that keeps device rows
 * acknowledged after it asked (refreshRows' requestedAt) takes the time from
 * `earlyAnswersAskedAt`, so a row the outbox delivered meanwhile is not replaced by the answer's
 * older copy.
 *
 * Asking early is open from `startEarlyAnswers` (the early entry) to `endEarlyAnswers` (the loading
 * chain, when it ends): what was not taken then is forgotten, and a wave of early requests still
 * under way sends nothing more, so no answer older than the chain's lingers for a later read.
 */
import { decodeClaims } from '../auth/local-identity';

/** An early answer as far as it serves: a successful status and its body. */
export interface EarlyAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

export interface EarlyInit {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** A request asked early, as it travels to a worker and back (plain data). */
export interface EarlyRequest {
  url: string;
  init: EarlyInit;
}

const answers = new Map<string, Promise<EarlyAnswer | null>>();
/** When the oldest answer still held was asked (null when none is held). */
let askedAt: number | null = null;
/** Between startEarlyAnswers and endEarlyAnswers. */
let open = false;

/** Whom a request is asked for: a bearer token's issuer and subject, else the header itself. */
function askedFor(authorization: string | null): string {
  if (!authorization) return '';
  const claims = /^bearer /i.test(authorization) ? decodeClaims(authorization.slice(7).trim()) : null;
  return typeof claims?.sub === 'string' && typeof claims.iss === 'string' ? JSON.stringify(['bearer', claims.iss, claims.sub]) : authorization;
}

function keyOf(url: string, init: { method?: string; headers?: HeadersInit; body?: unknown }): string | null {
  if (init.body !== undefined && typeof init.body !== 'string') return null;
  return JSON.stringify([(init.method ?? 'GET').toUpperCase(), url, askedFor(new Headers(init.headers).get('authorization')), init.body ?? '']);
}

/**
 * Sends a request now and keeps its answer for the app's first identical request. Resolves to the
 * parsed JSON body of a successful answer (for the early entry's next requests), or null.
 */
export function askEarly(fetchFn: typeof fetch, url: string, init: EarlyInit): Promise<unknown> {
  if (!open) return Promise.resolve(null);
  const key = keyOf(url, init)!;
  askedAt ??= Date.now();
  const answer = fetchFn(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body })
    .then(async (response): Promise<EarlyAnswer | null> =>
      response.ok ? { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() } : null,
    )
    .catch(() => null);
  answers.set(key, answer);
  return answer.then((taken) => {
    if (!taken) return null;
    try {
      return JSON.parse(taken.text) as unknown;
    } catch {
      return null;
    }
  });
}

/**
 * Keeps a place for the answer to a request another context sends (the early reads' worker,
 * early-reads.ts): the app's identical request waits for it as for one sent here. Returns the
 * function that hands the answer in (null: it failed, and the app asks itself).
 */
export function expectEarly({ url, init }: EarlyRequest): (answer: EarlyAnswer | null) => void {
  if (!open) return () => undefined;
  askedAt ??= Date.now();
  let handIn!: (answer: EarlyAnswer | null) => void;
  answers.set(keyOf(url, init)!, new Promise<EarlyAnswer | null>((resolve) => (handIn = resolve)));
  return handIn;
}

/** `fetchFn`, except that a request asked early is answered with that answer (once). */
export function withEarlyAnswers(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    // Every request of the app comes through here: once no answer is held (after start-up), none
    // is keyed (a bulk call's body would be copied into its key for nothing).
    const key = answers.size > 0 && typeof input === 'string' ? keyOf(input, init ?? {}) : null;
    const early = key === null ? undefined : answers.get(key);
    if (early) {
      answers.delete(key!);
      if (answers.size === 0) askedAt = null;
      const answer = await early;
      if (answer && !init?.signal?.aborted) {
        return new Response(answer.text, { status: answer.status, headers: answer.contentType ? { 'content-type': answer.contentType } : {} });
      }
    }
    return fetchFn(input, init);
  };
}

/** When the oldest early answer not taken yet was asked, or undefined when none is held. */
export function earlyAnswersAskedAt(): number | undefined {
  return askedAt ?? undefined;
}

/** Requests asked early and not taken yet. */
export function earlyRequestsLeft(): number {
  return answers.size;
}

/** Opens asking early (a start-up begins), with no answer held. */
export function startEarlyAnswers(): void {
  endEarlyAnswers();
  open = true;
}

/** The start-up the early answers were for is over: forgets those not taken and asks nothing more. */
export function endEarlyAnswers(): void {
  answers.clear();
  askedAt = null;
  open = false;
}
