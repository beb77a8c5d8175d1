/**
 * Bulk import for editors (the code is src/server/import, shared with `npm run import`):
 *
 * - `POST /api/Import/preview` (multipart `kind` = farmers|areas, `file`) →
 *   `{columns, targets: [{id, name}], suggested: {source: columnId|null}, sample (first 5 rows), crs?}`
 * - `POST /api/Import/dry-run` and `POST /api/Import/commit` (multipart `kind`, `file`, optional
 *   `mapping` JSON {source: columnId}) → `{created, updated, refused, rows: [{row, action, reason?, key?}]}`;
 *   a commit with refused rows answers 400 with the same report (plus the error members) and
 *   writes nothing.
 *
 * Optional field `projectId` (default: the project the server serves, PROJECT_ID). Editors of the
 * project only (readers and farmers 403). File size as for attachments (UPLOAD_LIMIT → 413).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { slSeasonServer } from '../../../../common/i18n/sl';
import { ImportReport } from '../../../../common/schemas/wire';
import { resolveAccess } from '../../../access/access';
import { discard, receiveMultipart, type MultipartForm } from '../../../attachments/upload';
import { DEFAULT_LIMITS, type UploadLimits } from '../../../env';
import { errorBody } from '../../../http/errors';
import { forbidden, invalid, notFound, unauthenticated } from '../../../domain-errors';
import '../../../http/fastify-types';
import { ImportRefused, previewImport, refusedMessage, runImport, UnreadableFile, type ImportFile } from '../../../import';
import type { ImportKind } from '../../../import/source';
import type { RepoContext } from '../../../repositories/context';
import { writeErrorResponses } from '../../../http/schemas';
import { multipartDoc } from '../attachments/multipart-doc';

export interface ImportRouteOptions {
  dataDir?: string;
  projectId?: number;
  limits?: Partial<UploadLimits>;
}

const t = slSeasonServer.import;
const tags = ['Import'];

const previewSchema = {
  type: 'object',
  properties: {
    columns: { type: 'array', items: { type: 'string' } },
    targets: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] } },
    suggested: { type: 'object', additionalProperties: { type: ['integer', 'null'] } },
    sample: { type: 'array', items: { type: 'object', additionalProperties: true } },
    crs: { type: 'string' },
  },
  required: ['columns', 'targets', 'suggested', 'sample'],
} as const;

const parts = {
  kind: { type: 'string', description: 'farmers (CSV) or areas (GeoJSON, GeoPackage, zipped Shapefile)' },
  file: { type: 'string', format: 'binary', description: 'The file' },
  projectId: { type: 'integer', description: 'Project (default: the one the server serves)' },
} as const;
const mappingPart = {
  mapping: { type: 'string', description: 'JSON {source attribute: column id | null}; default: by column names and Slovenian labels' },
} as const;

export default async function importRoutes(app: FastifyInstance, options: ImportRouteOptions): Promise<void> {
  const limits: UploadLimits = { ...DEFAULT_LIMITS, ...(options.limits ?? {}) };
  const tmpDir = path.join(options.dataDir ?? 'data', 'tmp');
  // Scoped to this plugin, as the attachment routes do.
  await app.register(multipart, { limits: { fileSize: limits.fileSize, files: limits.files } });

  /** The form's kind and file (read into memory), and an editor's context for the project. */
  async function receive(request: FastifyRequest, withMapping: boolean): Promise<{ ctx: RepoContext; file: ImportFile }> {
    if (!request.principal) throw unauthenticated('authentication required');
    const form: MultipartForm = await receiveMultipart(request, tmpDir, limits);
    try {
      const allowed = new Set(['kind', 'projectId', ...(withMapping ? ['mapping'] : [])]);
      const unknown = Object.keys(form.fields).find((name) => !allowed.has(name));
      if (unknown) throw invalid(`field ${unknown} is not allowed`);
      const projectId = form.fields.projectId === undefined ? (options.projectId ?? 1) : Number(form.fields.projectId);
      const schema = Number.isSafeInteger(projectId) && projectId > 0 ? await app.projects.get(projectId) : null;
      if (!schema) throw notFound(`project ${String(form.fields.projectId ?? projectId)} not found`);
      const access = await resolveAccess(app.db, app.dialect, schema, request.principal);
      if (!access.editor) throw forbidden('only editors import');
      const kind = form.fields.kind;
      if (kind !== 'farmers' && kind !== 'areas') throw invalid(t.kindInvalid);
      const part = form.files.find((f) => f.fieldName === 'file');
      if (!part || form.files.length !== 1) throw invalid(t.fileMissing);
      const bytes = await readFile(part.tempPath);
      const ctx: RepoContext = {
        db: app.db,
        dialect: app.dialect,
        schema,
        access,
        now: new Date().toISOString(),
        ...(app.farmerAccounts ? { farmerAccounts: app.farmerAccounts } : {}),
      };
      return {
        ctx,
        file: { kind: kind as ImportKind, bytes: new Uint8Array(bytes), ...(form.fields.mapping !== undefined ? { mapping: form.fields.mapping } : {}) },
      };
    } finally {
      await discard(form.files);
    }
  }

  /** A file the import cannot read is the client's problem: 400 with the Slovenian reason. */
  async function readable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof UnreadableFile) throw invalid(error.message);
      throw error;
    }
  }

  app.post(
    '/api/Import/preview',
    {
      schema: {
        tags,
        summary: 'Columns, suggested mapping and the first rows of an import file (editors)',
        response: { 200: previewSchema, ...writeErrorResponses },
      },
      config: { swaggerTransform: multipartDoc(parts, ['kind', 'file']) },
    },
    async (request) => {
      const { ctx, file } = await receive(request, false);
      return readable(() => previewImport(ctx, file.kind, file.bytes));
    },
  );

  app.post(
    '/api/Import/dry-run',
    {
      schema: {
        tags,
        summary: 'What an import would create, update and refuse, with a reason per refused row (writes nothing)',
        response: { 200: ImportReport, ...writeErrorResponses },
      },
      config: { swaggerTransform: multipartDoc({ ...parts, ...mappingPart }, ['kind', 'file']) },
    },
    async (request) => {
      const { ctx, file } = await receive(request, true);
      const reports = await readable(() => runImport(ctx, [file], { commit: false }));
      return reports[file.kind]!;
    },
  );

  app.post(
    '/api/Import/commit',
    {
      schema: {
        tags,
        summary: 'Import all rows in one transaction (any refused row → 400 with the report, nothing written); re-import updates in place',
        response: {
          200: ImportReport,
          400: { type: 'object', additionalProperties: true },
          ...Object.fromEntries(Object.entries(writeErrorResponses).filter(([status]) => status !== '400')),
        },
      },
      config: { swaggerTransform: multipartDoc({ ...parts, ...mappingPart }, ['kind', 'file']) },
    },
    async (request, reply) => {
      const { ctx, file } = await receive(request, true);
      try {
        const reports = await readable(() => app.db.transaction().execute((trx) => runImport({ ...ctx, db: trx }, [file], { commit: true })));
        return reports[file.kind]!;
      } catch (error) {
        if (!(error instanceof ImportRefused)) throw error;
        return reply.status(400).send({ ...errorBody(400, refusedMessage(error.reports)), ...error.reports[file.kind] });
      }
    },
  );
}
