/**
 * Route glue for the wire schemas of src/common/schemas/wire.ts (TypeBox, the one source):
 * registers them once with app.addSchema, so routes reference them by $id (`ref(WireRecord)`) and
 * the OpenAPI document lists them as components, and names the error answers routes share.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError, ref, REGISTERED_SCHEMAS } from '../../common/schemas/wire';

export function registerSharedSchemas(app: FastifyInstance): void {
  for (const schema of REGISTERED_SCHEMAS) app.addSchema(schema);
}

const apiError = ref(ApiError);

/** Error answers every authenticated route may give. */
export const errorResponses = { 400: apiError, 401: apiError, 403: apiError, 404: apiError } as const;

/** Error answers of write routes (adds 409 version conflict, 413 too large, 422 key reuse). */
export const writeErrorResponses = { ...errorResponses, 409: apiError, 413: apiError, 422: apiError } as const;

/** Error answers of multipart uploads (adds 415 unsupported file type). */
export const uploadErrorResponses = { ...writeErrorResponses, 415: apiError } as const;
