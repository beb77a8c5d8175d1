/**
 * Multipart routes read their parts themselves (streaming, limits, content checks), so Fastify
 * must not validate a `body` schema for them: the multipart parser leaves `request.body` empty and
 * any body schema would fail. The parts are still documented: this per-route swagger transform
 * adds the multipart body to the OpenAPI document only.
 */
import type { SwaggerTransform } from '@fastify/swagger';

export interface MultipartPartDoc {
  type: 'string' | 'integer';
  format?: 'binary';
  description: string;
}

export function multipartDoc(parts: Record<string, MultipartPartDoc>, required: string[]): SwaggerTransform {
  return ({ schema, url }) => ({
    url,
    schema: {
      ...schema,
      consumes: ['multipart/form-data'],
      body: { type: 'object', required, properties: parts },
    },
  });
}
