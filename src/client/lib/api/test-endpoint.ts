/** GET /api/Test: the reachability probe: any 200 means the server is reachable. */
import { api } from './api';

export const testApi = api.injectEndpoints({
  endpoints: (build) => ({
    reachability: build.query<string, void>({
      query: () => ({ url: '/api/Test', responseType: 'text' }),
      keepUnusedDataFor: 0,
    }),
  }),
});
