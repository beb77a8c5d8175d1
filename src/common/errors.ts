/**
 * The error catalogue (docs/architecture.md, Error catalogue). The server answers errors as `{status, message}` with these
 * messages; the client maps any failed request to the same texts.
 */
import type { ApiError } from './schemas/wire';

const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};
export const GENERIC_ERROR = 'Generic Error';
export const REQUEST_ABORTED = 'Request aborted';

/** Message of the catalogue for an HTTP status; any other non-ok status is 'Generic Error'. */
export function errorMessageForStatus(status: number): string {
  return ERROR_MESSAGES[status] ?? GENERIC_ERROR;
}

/** The JSON body of every error answer (its schema, ApiError, is part of the wire contract). `detail` names the problem (field, operator, id). */
export type ApiErrorBody = ApiError;

/**
 * A bulk call's refusal names the failing operation first — `operations[3] (opId …): why`, or
 * `operations[3]: why` / `operations[3].properties.12 (note): why` when the check named it itself —
 * so a client or an import log can tell which one it was. This is the detail without that name, for
 * people who already see which edit or row it is.
 */
export function withoutOperation(detail: string): string {
  return detail.replace(/^operations\[\d+\](?: \(opId [^)]*\))?(?:: |\.)/, '');
}

/** The detail of a bulk refusal of operation `path` (see withoutOperation). */
export function operationDetail(path: string, opId: string, detail: string): string {
  return detail.startsWith(path) ? detail : `${path} (opId ${opId}): ${detail}`;
}
