/**
 * The online-only calls of the set-up screens, injected into the app's one RTK Query api:
 * farmers' sign-in accounts and activation links (GET/POST /api/Accounts/{farmerId}…) and the
 * import of farmers and meadows from files (POST /api/Import/{preview,dry-run,commit}, multipart).
 * They change things no outbox can queue (a link is useful only once the server made it; an
 * import is all or nothing on the server), so the screens offer them only when online.
 */
import type { ImportReport } from '../../../common/schemas/wire';
import { api } from '../../lib/api/api';

interface AccountState {
  exists: boolean;
  activated: boolean;
  activationPending: boolean;
  /** ISO time the pending activation link stops working. */
  expiresAt?: string;
  /** 'keycloak': accounts live in an external Keycloak; the app only writes the farmer data. */
  mode: 'embedded' | 'keycloak';
}

export interface ActivationLink {
  url: string;
  expiresAt: string;
}

export type ImportKind = 'farmers' | 'areas';

export interface ImportPreview {
  /** The file's source columns (header / properties). */
  columns: string[];
  /** Columns of the target table a source column may map to. */
  targets: Array<{ id: number; name: string }>;
  /** Per source column the server's guess (a target's id), or null for "do not import". */
  suggested: Record<string, number | null>;
  /** The first rows as read, keyed by source column. */
  sample: Array<Record<string, unknown>>;
  /** The coordinate system the server recognised (meadows). */
  crs?: string;
}

export type ImportMapping = Record<string, number | null>;

interface ImportUpload {
  kind: ImportKind;
  file: File;
  mapping?: ImportMapping;
}

function importForm({ kind, file, mapping }: ImportUpload): FormData {
  const form = new FormData();
  // Text fields first: a streaming server parser reads them before the file.
  form.append('kind', kind);
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  form.append('file', file, file.name);
  return form;
}

const setupApi = api.injectEndpoints({
  endpoints: (build) => ({
    account: build.query<AccountState, { farmerId: number }>({
      query: ({ farmerId }) => `/api/Accounts/${farmerId}`,
      providesTags: (_r, _e, { farmerId }) => [{ type: 'Record', id: `account-${farmerId}` }],
    }),
    createActivation: build.mutation<ActivationLink, { farmerId: number }>({
      query: ({ farmerId }) => ({ url: `/api/Accounts/${farmerId}/activation`, method: 'POST', body: {} }),
      invalidatesTags: (_r, _e, { farmerId }) => [{ type: 'Record', id: `account-${farmerId}` }],
    }),
    importPreview: build.mutation<ImportPreview, ImportUpload>({
      query: (upload) => ({ url: '/api/Import/preview', method: 'POST', body: importForm(upload) }),
    }),
    importDryRun: build.mutation<ImportReport, ImportUpload>({
      query: (upload) => ({ url: '/api/Import/dry-run', method: 'POST', body: importForm(upload) }),
    }),
    importCommit: build.mutation<ImportReport, ImportUpload>({
      query: (upload) => ({ url: '/api/Import/commit', method: 'POST', body: importForm(upload) }),
      invalidatesTags: ['Record'],
    }),
  }),
});

export const { useAccountQuery, useCreateActivationMutation, useImportPreviewMutation, useImportDryRunMutation, useImportCommitMutation } = setupApi;
