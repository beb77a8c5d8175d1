/**
 * Request shapes the early entry sends before RTK Query has loaded (lib/api/early-answers.ts), and
 * the endpoints send later: one definition, so the two are identical and the early answers serve.
 */
import type { SearchRequest } from '../../../common/filter';

/** POST /api/Records/{projectId}/search */
export const recordsSearchPath = (projectId: number) => `/api/Records/${projectId}/search`;

/** GET /api/PublicApp/{projectId}/roles */
export const rolesPath = (projectId: number) => `/api/PublicApp/${projectId}/roles`;

/** One page of a search (the page fields after the query's own, as every caller sends them). */
export function searchPage(body: Omit<SearchRequest, 'page' | 'perPage'>, page: number, perPage: number): SearchRequest {
  return { ...body, page, perPage };
}
