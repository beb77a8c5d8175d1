/** PublicApp calls. */
import type { RolesResult } from '../../../common/schemas/wire';
import { api } from './api';
import { rolesPath } from './paths';

export const publicAppApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/PublicApp/{projectId}/roles — anyone neither editor nor reader is a farmer. */
    roles: build.query<RolesResult, { projectId: number }>({
      query: ({ projectId }) => rolesPath(projectId),
      providesTags: ['Roles'],
    }),
  }),
});
