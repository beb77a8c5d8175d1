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
