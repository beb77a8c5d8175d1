/**
 * OpenAPI document and browsable docs, generated from the JSON schemas every route declares.
 *
 * Must be registered BEFORE any route: @fastify/swagger collects routes through an onRoute hook,
 * so routes added earlier are missing from the document. app.ts awaits `registerOpenApi` first.
 *
 * - GET /api/openapi.json — the OpenAPI 3.1 document (3.1: the wire schemas are JSON Schema
 *   2020-12, `if`/`then` included). Every operation has an `operationId` (`operationIdOf`), and
 *   `npm run lint` checks the document with Redocly's recommended rules (scripts/lint-openapi.ts).
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

/**
 * An operation's id from its method and the literal segments of its address: GET
 * /api/Records/{projectId}/search/{profileId}/… → getRecordsSearch, POST /api/Import/dry-run →
 * postImportDryRun. Stable as long as the address is, and unique across the API
 * (test/server/openapi.test.ts); a route may name its own in `schema.operationId`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((segment) => segment && segment !== 'api' && !segment.startsWith(':') && !segment.startsWith('{'))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return method.toLowerCase() + words.join('');
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      // Relative: the document describes the server that serves it, whatever its address.
      servers: [{ url: '/', description: 'Ta strežnik' }],
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
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? route.method[0]! : route.method;
      const own = (schema as { operationId?: unknown } | undefined)?.operationId;
      return { schema: { ...schema, operationId: typeof own === 'string' ? own : operationIdOf(method, url) } as typeof schema, url };
    },
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
