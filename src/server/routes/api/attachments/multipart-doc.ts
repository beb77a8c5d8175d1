/**
 * Multipart routes read their parts themselves (streaming, limits, content checks), so Fastify
 * must not validate a `body` schema for them: the multipart parser leaves `request.body` empty and
 * any body schema would fail. The parts are still documented: this per-route swagger transform
 * adds the multipart body to the OpenAPI document only.
 */
import type { SwaggerTransform } from '@fastify/swagger';
import { operationIdOf } from '../../../plugins/openapi';

export interface MultipartPartDoc {
  type: 'string' | 'integer';
  format?: 'binary';
  description: string;
}

export function multipartDoc(parts: Record<string, MultipartPartDoc>, required: string[]): SwaggerTransform {
  // A route's own transform replaces the document's, so it names the operation the same way.
  return ({ schema, url, route }) => ({
    url,
    schema: {
      ...schema,
      operationId: operationIdOf(Array.isArray(route.method) ? route.method[0]! : route.method, url),
      consumes: ['multipart/form-data'],
      body: { type: 'object', required, properties: parts },
    },
  });
}
