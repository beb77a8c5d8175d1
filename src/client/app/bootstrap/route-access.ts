/**
 * Who the user is, as far as route guards care (guards.ts).
 *
 * Integration point for auth (H2: roles from GET /api/PublicApp/{projectId}/roles) and the data
 * layer (H4: farmer record found by e-mail). Until their slices exist nothing is blocked; replace
 * the body with selectors, e.g.
 *   const role = useAppSelector(selectRole); const farmer = useAppSelector(selectFarmerLookup);
 */
import { UNKNOWN_ACCESS, type RouteAccess } from '../router/guards';

export function useRouteAccess(): RouteAccess {
  return UNKNOWN_ACCESS;
}
