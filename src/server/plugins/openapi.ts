/**
 * OpenAPI document and browsable docs, generated from the JSON schemas every route declares.
 *
 * Must be registered BEFORE any route: @fastify/swagger collects routes through an onRoute hook,
 * so routes added earlier are missing from the document. app.ts awaits `registerOpenApi` first.
 *
 * - GET /api/openapi.json — the OpenAPI 3 document.
 * - GET /api/docs         — Swagger UI. Its assets come from the swagger-ui package on disk; the
 *   online validator is off, so the page loads nothing from the internet (the server may run on a
 *   machine with no network).
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../../common/constants';

const OPENAPI_JSON_URL = '/api/openapi.json';
const OPENAPI_DOCS_PREFIX = '/api/docs';

export interface OpenApiOptions {
  /** Product version shown in the document (package.json version). */
  version: string;
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Moj travnik API',
        description:
          'Records, features, attachments and roles of a Moj travnik project (API version ' +
          `${API_VERSION}). Every /api route except GET /api/Test needs a bearer token (or basic ` +
          'credentials when the server is configured for them). Errors are JSON {status, message, detail?}.',
        version: options.version,
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          basic: { type: 'http', scheme: 'basic' },
        },
      },
      security: [{ bearer: [] }, { basic: [] }],
      tags: [
        { name: 'Records', description: 'Records of the project tables' },
        { name: 'Features', description: 'Records with a GeoJSON geometry' },
        { name: 'Attachments', description: 'Files attached to records (photos, tracks, documents)' },
        { name: 'PublicApp', description: 'Roles of the caller' },
        { name: 'Site', description: 'Configuration and reachability' },
      ],
    },
    // Shared schemas (http/schemas.ts) appear under components by their $id (WireRecord, …)
    // rather than def-0, def-1.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    exposeHeadRoutes: false,
  });

  // The document itself, at the address the issue names (the UI plugin also serves it at /api/docs/json).
  app.get(OPENAPI_JSON_URL, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });

  await app.register(swaggerUi, {
    routePrefix: OPENAPI_DOCS_PREFIX,
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
    staticCSP: true,
    // Its own policy (hashes of its inline parts), but never inside a frame, like every other page.
    transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });
}
