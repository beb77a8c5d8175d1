/**
 * GET /api/Audit/{projectId} (a page of the trail) and …/csv (the whole selection as a file),
 * injected into the app's one RTK Query api. Online only: the trail is the server's record of
 * every user's changes, which no device holds. The audit screen, a form's own history and the
 * results export's history column all read it.
 */
import type { AuditPage, AuditQuery } from '../../../common/schemas/audit';
import { api } from './api';

interface ProjectQuery extends AuditQuery {
  projectId: number;
}

/** The query string: only the filters that are set. */
function params({ projectId: _projectId, ...query }: ProjectQuery): Record<string, string | number> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== '')) as Record<string, string | number>;
}

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    auditPage: build.query<AuditPage, ProjectQuery>({
      query: (q) => ({ url: `/api/Audit/${q.projectId}`, params: params(q) }),
      // Another user's change may have been made since: a screen opened again asks again.
      keepUnusedDataFor: 0,
    }),
    auditCsv: build.mutation<Blob, Omit<ProjectQuery, 'page' | 'perPage'>>({
      query: (q) => ({ url: `/api/Audit/${q.projectId}/csv`, params: params(q), responseType: 'blob', headers: { Accept: 'text/csv' } }),
    }),
  }),
});

export const { useAuditPageQuery, useAuditCsvMutation } = auditApi;
