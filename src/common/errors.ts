/**
 * The error catalogue (docs/architecture.md, Error catalogue). The server answers errors as `{status, message}` with these
 * messages; the client maps any failed request to the same texts.
 */
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

/** The JSON body of every error answer. `detail` names the problem (field, operator, id). */
export interface ApiErrorBody {
  status: number;
  message: string;
  detail?: string;
  /** 409 answers carry the current server version of the record. */
  current?: unknown;
  /** Bulk calls: the opId of the operation that failed (the whole call was rejected). */
  opId?: string;
  /** 409 on an insert: the live row that already holds the same unique values (e.g. a form's indicator key); `current` is that row. */
  duplicateOf?: number;
}
