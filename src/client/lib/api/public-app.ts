/** PublicApp calls. */
import type { RolesResult } from '../../../common/schemas/wire';
import { api } from './api';

export const publicAppApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /api/PublicApp/{projectId}/roles — anyone neither editor nor reader is a farmer. */
    roles: build.query<RolesResult, { projectId: number }>({
      query: ({ projectId }) => `/api/PublicApp/${projectId}/roles`,
      providesTags: ['Roles'],
    }),
  }),
});

