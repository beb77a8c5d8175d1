/** The drain's transport in the app: every call goes through the RTK Query endpoints of lib/api. */
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { ApiError } from '../../lib/api/base-query';
import { featuresApi } from '../../lib/api/features';
import { recordsApi } from '../../lib/api/records';
import type { DrainTransport, TransportResult } from './drain-pass';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDispatch = ThunkDispatch<any, any, UnknownAction>;

interface MutationHandle<T> {
  unwrap(): Promise<T>;
  reset(): void;
}

/** Runs a mutation, drops its cache entry (thousands of drained edits must not pile up in state). */
async function run<T>(handle: MutationHandle<T>): Promise<TransportResult<T>> {
  try {
    return { data: await handle.unwrap() };
  } catch (error) {
    return { error: error as ApiError };
  } finally {
    handle.reset();
  }
}

export function rtkQueryTransport(dispatch: AnyDispatch): DrainTransport {
  return {
    bulk(api, projectId, operations) {
      const endpoint = api === 'Features' ? featuresApi.endpoints.bulkFeatures : recordsApi.endpoints.bulkRecords;
      return run(dispatch(endpoint.initiate({ projectId, body: { operations } }, { track: false })));
    },
    uploadAttachment(item, file) {
      return run(
        dispatch(
          recordsApi.endpoints.uploadAttachment.initiate(
            {
              projectId: item.projectId,
              idempotencyKey: item.opId,
              upload: {
                tableId: item.tableId,
                recordId: item.recordId!,
                tableAttachmentInfoId: item.tableAttachmentInfoId!,
                name: file.name,
                mimeType: file.mimeType,
                data: file.data,
              },
            },
            { track: false },
          ),
        ),
      );
    },
    deleteAttachment(item) {
      return run(
        dispatch(
          recordsApi.endpoints.deleteAttachment.initiate(
            { projectId: item.projectId, recordAttachmentId: item.id, idempotencyKey: item.opId },
            { track: false },
          ),
        ),
      );
    },
  };
}
