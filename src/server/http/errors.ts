/**
 * Errors as the API answers them. Every failure leaves the server as JSON `{status, message, detail?}`
 * (src/common/errors.ts): `message` is always the catalogue text for the status (docs/architecture.md, Error catalogue), `detail`
 * names the problem (field, column, operator, id) so a client developer can fix the request.
 * 5xx answers never carry internals: the handler logs them and sends the bare catalogue text.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorMessageForStatus, type ApiErrorBody } from '../../common/errors';
import { slSecurity } from '../../common/i18n/sl';
import { isLiveUniqueViolation } from '../db/live-unique-rules';
import { DomainError, type DomainErrorKind } from '../domain-errors';

export class HttpError extends Error {
  readonly statusCode: number;
  readonly detail: string | undefined;
  /** Extra members of the error body (e.g. `current` on 409, `opId` of a failing bulk operation). */
  readonly extra: Partial<ApiErrorBody> | undefined;
  /** Seconds the caller should wait before trying again (sent as Retry-After). */
  retryAfter: number | undefined;

  constructor(statusCode: number, detail?: string, extra?: Partial<ApiErrorBody>) {
    super(detail ?? errorMessageForStatus(statusCode));
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.detail = detail;
    this.extra = extra;
  }
}

/**
 * The status of each domain error kind (domain-errors.ts): the server's own code throws those;
 * HttpError is for what only HTTP knows (too large, unsupported type, a reused Idempotency-Key, a limit).
 */
const STATUS_OF: Record<DomainErrorKind, number> = { invalid: 400, unauthenticated: 401, forbidden: 403, 'not-found': 404, conflict: 409 };

/** 429 with Retry-After: the caller went over a request limit and may go on after `retryAfter` seconds. */
export const tooManyRequests = (retryAfter: number): HttpError => Object.assign(new HttpError(429, slSecurity.rateLimited(retryAfter)), { retryAfter });

/** The error body for a status; `detail` only when there is something useful to say. */
export function errorBody(status: number, detail?: string, extra?: Partial<ApiErrorBody>): ApiErrorBody {
  const body: ApiErrorBody = { status, message: errorMessageForStatus(status) };
  if (detail) body.detail = detail;
  if (extra) Object.assign(body, extra);
  return body;
}

/** One problem Ajv found in a request, as Fastify hands it on. */
export interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
  keyword?: string;
}

/** "body/properties/tableId must be integer" → names the field the way a client developer sends it. */
function describeValidation(context: string | undefined, issues: ValidationIssue[]): string {
  const issue = issues[0];
  if (!issue) return 'invalid request';
  let path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'additionalProperties' && issue.params && 'additionalProperty' in issue.params) {
    path = [path, String(issue.params.additionalProperty)].filter(Boolean).join('.');
    return `${context ?? 'request'}${path ? `.${path}` : ''} is not allowed`;
  }
  if (issue.keyword === 'required' && issue.params && 'missingProperty' in issue.params) {
    path = [path, String(issue.params.missingProperty)].filter(Boolean).join('.');
    return `${context ?? 'request'}.${path} is required`;
  }
  return `${context ?? 'request'}${path ? `.${path}` : ''} ${issue.message ?? 'is invalid'}`;
}

/** Maps any thrown error to the catalogue body. Registered once by buildApp. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError | DomainError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      const status = STATUS_OF[error.kind];
      return reply.status(status).send(errorBody(status, error.detail, error.extra));
    }
    if (error instanceof HttpError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
      const body = error.statusCode >= 500 ? errorBody(error.statusCode) : errorBody(error.statusCode, error.detail, error.extra);
      return reply.status(error.statusCode).send(body);
    }
    if (isLiveUniqueViolation(error)) {
      // Two rows of one bulk call broke a one-live-row rule (the writers check each row against
      // the database, the index also sees rows of the same call): the call is refused as a
      // conflict without naming an operation, and the client sends them one by one.
      return reply.status(409).send(errorBody(409, 'a row with the same unique values is already live (one live indicator per key on a form)'));
    }
    const fe = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
    if (fe.validation) {
      return reply.status(400).send(errorBody(400, describeValidation(fe.validationContext, fe.validation)));
    }
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send(errorBody(status));
    }
    return reply.status(status).send(errorBody(status, clientDetail(fe, status)));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(errorBody(404, `no route ${request.method} ${request.url.split('?')[0]}`));
  });
}

/** Fastify's own 4xx errors (parser, limits) explained without stack or internals. */
function clientDetail(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'malformed JSON body';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'empty JSON body';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is larger than the limit';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported content type';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'content length does not match the body';
    default:
      break;
  }
  // JSON.parse errors surface as SyntaxError with statusCode 400.
  if (error.name === 'SyntaxError' || status === 400) return error.code === undefined ? 'malformed JSON body' : error.message;
  return error.message;
}
