/**
 * Who the user is, as far as route guards care (router/guards.ts), from two sources:
 * - the roles of GET /api/PublicApp/{projectId}/roles kept by the auth feature (editor/reader
 *   flags; a user with neither is a farmer);
 * - the season loading chain, which finds the farmer record by e-mail and fails with
 *   sl.farmer.missing when there is none (docs/architecture.md, Roles); it also knows the role when the roles
 *   came from the offline copy.
 * While neither has answered, nothing is blocked (the screens show 'Nalagam...').
 */
import { useMemo } from 'react';
import { sl } from '../../../common/i18n/sl';
import { selectRoles } from '../../features/auth';
import { selectFarmerId, selectRole, selectSeasonError, selectSeasonStatus } from '../../features/season';
import { useAppSelector } from '../hooks';
import type { Role, RouteAccess } from '../router/guards';

export function useRouteAccess(): RouteAccess {
  const roles = useAppSelector(selectRoles);
  const seasonRole = useAppSelector(selectRole);
  const seasonStatus = useAppSelector(selectSeasonStatus);
  const seasonError = useAppSelector(selectSeasonError);
  const farmerId = useAppSelector(selectFarmerId);

  return useMemo(() => {
    let role: Role | null = seasonRole;
    if (roles) role = roles.editor ? 'editor' : roles.reader ? 'reader' : 'farmer';
    let farmerRecord: RouteAccess['farmerRecord'] = 'unknown';
    if (role === 'farmer') {
      if (seasonStatus === 'failed' && seasonError === sl.farmer.missing) farmerRecord = 'missing';
      else if (seasonStatus === 'ready' && farmerId !== null) farmerRecord = 'found';
    }
    return { role, farmerRecord };
  }, [roles, seasonRole, seasonStatus, seasonError, farmerId]);
}
