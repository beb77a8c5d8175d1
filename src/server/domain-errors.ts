/**
 * What can go wrong in the server's own code — repositories, access rules, import, attachments —
 * said without HTTP. http/errors.ts maps each kind to its status and the error catalogue's message
 * (docs/architecture.md, Error catalogue); `detail` names the problem for a client developer.
 */
import type { ApiErrorBody } from '../common/errors';

export type DomainErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not-found' | 'conflict';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly detail?: string,
    /** Extra members of the error body (e.g. `current` of a conflict, `opId` of a failing bulk operation). */
    readonly extra?: Partial<ApiErrorBody>,
  ) {
    super(detail ?? kind);
    this.name = 'DomainError';
  }
}

/** The request asks for something malformed or against a rule (a missing column, a bad filter, a crossing outline). */
export const invalid = (detail: string, extra?: Partial<ApiErrorBody>): DomainError => new DomainError('invalid', detail, extra);
/** No caller, or credentials that do not hold. */
export const unauthenticated = (detail?: string): DomainError => new DomainError('unauthenticated', detail);
/** The caller's role may not do this. */
export const forbidden = (detail: string): DomainError => new DomainError('forbidden', detail);
/** Nothing of that id within what the caller may see. */
export const notFound = (detail: string): DomainError => new DomainError('not-found', detail);
/** The row changed meanwhile (or a unique rule holds): `current` is what the server has now. */
export const conflict = (detail: string, current: unknown, extra?: Partial<ApiErrorBody>): DomainError =>
  new DomainError('conflict', detail, { ...extra, current });
