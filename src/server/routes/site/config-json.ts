/**
 * GET /config.json (docs/architecture.md, Data model): the project, the ids of its seven tables and their
 * columns and attachment slots (from the database: ids are never hard-coded in the client), the
 * form kinds of the scheme keyed by name (src/common/scheme/form-kinds.ts), base maps (our own
 * offline base map first), the auth mode and the version.
 *
 * Public and never cached (`no-cache`): the client revalidates it on every start, so a new
 * release's form kinds or ids reach phones on their next online start; the service worker keeps
 * the last copy for offline starts.
 */
import type { FastifyInstance } from 'fastify';
import { OWN_BASEMAP } from '../../../common/basemap';
import type { AppConfig, AuthMode, BaseMapConfig } from '../../../common/schemas/config';
import { ApiError, ref } from '../../../common/schemas/wire';
import { formKinds } from '../../../common/scheme/form-kinds';
import type { Executor } from '../../db/dialect';
import { HttpError } from '../../http/errors';
import { buildProjectConfig } from '../../repositories/project-repository';

export interface ConfigJsonOptions {
  db: Executor;
  /** The project the app works on (the demo project is 1). */
  projectId: number;
  version: string;
  authMode: AuthMode;
  /** Extra base maps (e.g. an orthophoto service) after the own offline one. */
  basemaps?: BaseMapConfig[];
}

const looseObject = { type: 'object', additionalProperties: true } as const;

const appConfigSchema = {
  type: 'object',
  required: ['version', 'projectId', 'searchProfileId', 'tables', 'forms', 'basemaps', 'auth'],
  properties: {
    version: { type: 'string' },
    projectId: { type: 'integer' },
    searchProfileId: { type: 'integer' },
    tables: {
      type: 'object',
      description: 'Table key → {id, columns: name → column id, attachments?: slot name → tableAttachmentInfoId}',
      additionalProperties: {
        type: 'object',
        required: ['id', 'columns'],
        properties: {
          id: { type: 'integer' },
          columns: { type: 'object', additionalProperties: { type: 'integer' } },
          attachments: { type: 'object', additionalProperties: { type: 'integer' } },
        },
      },
    },
    forms: {
      type: 'object',
      description: 'Form kinds keyed by name, each with id, title, indicator definitions and scoring rule',
      additionalProperties: looseObject,
    },
    basemaps: { type: 'array', items: looseObject },
    auth: {
      type: 'object',
      required: ['mode'],
      properties: { mode: { type: 'string', enum: ['keycloak', 'basic', 'none'] } },
    },
  },
} as const;

async function loadAppConfig(options: ConfigJsonOptions): Promise<AppConfig> {
  const project = await buildProjectConfig(options.db, options.projectId);
  return {
    version: options.version,
    projectId: project.projectId,
    searchProfileId: project.searchProfileId,
    tables: project.tables,
    forms: formKinds,
    basemaps: [OWN_BASEMAP, ...(options.basemaps ?? [])],
    auth: { mode: options.authMode },
  };
}

export function registerConfigJson(app: FastifyInstance, options: ConfigJsonOptions): void {
  app.get(
    '/config.json',
    {
      schema: {
        tags: ['Site'],
        summary: 'App configuration: project, table and column ids, form kinds, base maps, auth mode',
        security: [],
        response: { 200: appConfigSchema, 503: ref(ApiError) },
      },
    },
    async (request, reply) => {
      let config: AppConfig;
      try {
        config = await loadAppConfig(options);
      } catch (error) {
        // A project without its tables is a deployment fault, not the client's: 503 and a log line.
        request.log.error({ err: error }, 'config.json cannot be built');
        throw new HttpError(503);
      }
      reply.header('cache-control', 'no-cache');
      return config;
    },
  );
}
