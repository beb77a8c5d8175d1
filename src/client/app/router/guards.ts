/**
 * Conditions that block a route. A guard
 * looks at who the user is (RouteAccess, filled by the auth and data layers) and at the matched
 * route, and returns why the screen cannot open, or null. The server enforces the same rules
 * (docs/architecture.md, Roles); guards only keep the UI from offering what would be refused.
 */
import { sl, slSetup } from '../../../common/i18n/sl';
import { queryValue, type Params, type Query } from './match';

export type Role = 'editor' | 'reader' | 'farmer';

export interface RouteAccess {
  /** null while not known yet (signed out, roles not loaded): no role-based block applies. */
  role: Role | null;
  /** For farmers: whether a farmers record matches their e-mail. */
  farmerRecord: 'found' | 'missing' | 'unknown';
}

export const UNKNOWN_ACCESS: RouteAccess = { role: null, farmerRecord: 'unknown' };

export interface GuardInput {
  access: RouteAccess;
  params: Params;
  query: Query;
}

export interface Blocked {
  reason: 'reader-cannot-edit' | 'farmer-record-missing' | 'staff-only' | 'editors-only';
  message: string;
}

export type RouteGuard = (input: GuardInput) => Blocked | null;

/**
 * Edit screens: a parameter 'new' (creating a record) or `?edit` in the query. Readers see
 * everything but change nothing.
 */
export const readersCannotEdit: RouteGuard = ({ access, params, query }) => {
  const editing = Object.values(params).includes('new') || queryValue(query, 'edit') !== undefined;
  if (editing && access.role === 'reader') return { reason: 'reader-cannot-edit', message: sl.router.blockedReader };
  return null;
};

/** A farmer without a farmers record has no data to show (the missing-farmer error). */
export const farmerRecordRequired: RouteGuard = ({ access }) => {
  if (access.role === 'farmer' && access.farmerRecord === 'missing') {
    return { reason: 'farmer-record-missing', message: sl.router.blockedNoFarmer };
  }
  return null;
};

/** Setting up the season is the advisers' work: farmers never open those screens. */
export const staffOnly: RouteGuard = ({ access }) => (access.role === 'farmer' ? { reason: 'staff-only', message: slSetup.blockedFarmer } : null);

/** Screens that only change data and have nothing to show a reader (the import). */
export const editorsOnly: RouteGuard = ({ access }) =>
  access.role === 'farmer'
    ? { reason: 'staff-only', message: slSetup.blockedFarmer }
    : access.role === 'reader'
      ? { reason: 'editors-only', message: slSetup.blockedEditorsOnly }
      : null;

/** Creating a path on one's own meadow is field work: readers are refused (they change nothing). */
export const readersCannotCreate: RouteGuard = ({ access }) =>
  access.role === 'reader' ? { reason: 'reader-cannot-edit', message: sl.router.blockedReader } : null;

export function firstBlock(guards: readonly RouteGuard[] | undefined, input: GuardInput): Blocked | null {
  for (const guard of guards ?? []) {
    const blocked = guard(input);
    if (blocked) return blocked;
  }
  return null;
}
