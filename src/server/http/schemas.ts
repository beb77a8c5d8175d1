/**
 * JSON schemas of the wire contract (src/common/schemas/wire.ts), registered once with
 * app.addSchema so routes reference them by $id (`{ $ref: 'WireRecord#' }`) and the OpenAPI
 * document (routes/site) lists them as components. Bodies reject unknown top-level fields (no
 * mass assignment of id, version or timestamps); `properties` is checked against the table's
 * columns by the repositories, and filters by the filter compiler (clearer messages than a
 * recursive schema).
 */
import type { FastifyInstance } from 'fastify';
import { COMPARISONS, LOGICAL_OPERATORS, META_COLUMNS } from '../../common/filter';
import { PAGE_SIZE } from '../../common/constants';

/** Largest bulk call (the benchmark sends 10,000 records in one call; clients send ≤ 200). */
/** Fields of an AttachmentInfo (src/common/schemas/wire.ts), shared by the schema below and the attachment routes. */
export const attachmentInfoProperties = {
  id: { type: 'integer' },
  tableId: { type: 'integer' },
  recordId: { type: 'integer' },
  tableAttachmentInfoId: { type: 'integer' },
  name: { type: 'string' },
  mimeType: { type: 'string' },
  size: { type: 'integer' },
  createdAt: { type: 'string' },
  hasThumb: { type: 'boolean' },
} as const;

const MAX_BULK_OPERATIONS = 10_000;
const MAX_IDS = 10_000;

const id = { type: 'integer', minimum: 1 } as const;
const properties = {
  type: 'object',
  additionalProperties: true,
  description: 'Property values keyed by column id (see config.json → tables → columns).',
} as const;
const geometry = {
  type: 'object',
  nullable: true,
  additionalProperties: true,
  description: 'GeoJSON geometry (Point … GeometryCollection); a Feature or FeatureCollection is unwrapped. null = none.',
} as const;
const rowMeta = {
  id: { type: 'integer' },
  tableId: { type: 'integer' },
  deleted: { type: 'boolean' },
  archived: { type: 'boolean' },
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  version: { type: 'integer' },
} as const;
const metaRequired = ['id', 'tableId', 'deleted', 'archived', 'createdAt', 'updatedAt', 'version'];
const columnId = {
  anyOf: [{ type: 'integer' }, { type: 'string', enum: [...META_COLUMNS] }],
  description: `A column id of the table or a record field: ${META_COLUMNS.join(', ')}.`,
} as const;

const sharedSchemas = [
  {
    $id: 'ApiError',
    type: 'object',
    description: 'Every error: the catalogue message for the status, and what was wrong.',
    properties: {
      status: { type: 'integer' },
      message: { type: 'string' },
      detail: { type: 'string' },
      current: { description: '409 only: the current server version of the record.' },
      opId: { type: 'string', description: 'bulk only: the operation that failed.' },
      duplicateOf: { type: 'integer', description: '409 on an insert only: the live row that already holds the same unique values (one live indicator per key on a form); `current` is that row.' },
    },
    required: ['status', 'message'],
  },
  {
    $id: 'WireRecord',
    type: 'object',
    properties: { ...rowMeta, properties, geometry },
    required: [...metaRequired, 'properties'],
  },
  {
    $id: 'WireFeature',
    type: 'object',
    properties: { type: { type: 'string', enum: ['Feature'] }, ...rowMeta, geometry, properties },
    required: ['type', ...metaRequired, 'geometry', 'properties'],
  },
  {
    $id: 'AttachmentInfo',
    type: 'object',
    properties: attachmentInfoProperties,
    required: ['id', 'tableId', 'recordId', 'tableAttachmentInfoId', 'name', 'mimeType', 'size', 'createdAt', 'hasThumb'],
  },
  {
    $id: 'HistoryEntry',
    type: 'object',
    properties: {
      id: { type: 'integer' },
      recordId: { type: 'integer' },
      action: { type: 'string', enum: ['insert', 'update', 'delete', 'archive', 'unarchive'] },
      changedBy: { type: 'string', nullable: true },
      changedAt: { type: 'string' },
      old: { type: 'object', nullable: true, additionalProperties: true },
      new: { type: 'object', nullable: true, additionalProperties: true },
    },
    required: ['id', 'recordId', 'action', 'changedAt'],
  },
  {
    $id: 'DetailedFeature',
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['Feature'] },
      ...rowMeta,
      geometry,
      properties,
      attachments: { type: 'array', items: { $ref: 'AttachmentInfo#' } },
      history: { type: 'array', items: { $ref: 'HistoryEntry#' } },
    },
    required: ['type', ...metaRequired, 'geometry', 'properties', 'attachments', 'history'],
  },
  {
    $id: 'RecordPage',
    type: 'object',
    properties: { records: { type: 'array', items: { $ref: 'WireRecord#' } }, totalCount: { type: 'integer' } },
    required: ['records', 'totalCount'],
  },
  {
    $id: 'FeaturePage',
    type: 'object',
    properties: { features: { type: 'array', items: { $ref: 'WireFeature#' } }, totalCount: { type: 'integer' } },
    required: ['features', 'totalCount'],
  },
  {
    $id: 'IdPage',
    type: 'object',
    properties: { ids: { type: 'array', items: { type: 'integer' } }, totalCount: { type: 'integer' } },
    required: ['ids', 'totalCount'],
  },
  {
    $id: 'IdsResult',
    type: 'object',
    properties: { ids: { type: 'array', items: { type: 'integer' } } },
    required: ['ids'],
  },
  {
    $id: 'SearchRequest',
    type: 'object',
    additionalProperties: false,
    properties: {
      tableId: id,
      page: { type: 'integer', minimum: 1, default: 1, description: '1-based page number.' },
      perPage: { type: 'integer', minimum: 1, maximum: PAGE_SIZE, default: PAGE_SIZE },
      filters: {
        type: 'object',
        description:
          `Filter tree: {kind:"expression", operator: ${LOGICAL_OPERATORS.join('|')}, nodes:[…]} or ` +
          `{kind:"filter", columnId, comparison, value?}; comparisons: ${COMPARISONS.join(', ')}.`,
        additionalProperties: true,
      },
      sorts: {
        type: 'array',
        maxItems: 8,
        items: {
          type: 'object',
          additionalProperties: false,
          properties: { columnId, direction: { type: 'string', enum: ['asc', 'desc'] } },
          required: ['columnId', 'direction'],
        },
      },
      includeDeleted: { type: 'boolean', default: false },
    },
    required: ['tableId'],
  },
  {
    $id: 'CreateRecordBody',
    type: 'object',
    additionalProperties: false,
    properties: { tableId: id, properties, geometry },
    required: ['tableId', 'properties'],
  },
  {
    $id: 'UpdateRecordBody',
    type: 'object',
    additionalProperties: false,
    properties: {
      properties: { ...properties, description: 'Merged into the stored properties: given keys replace, null clears, omitted keys stay.' },
      geometry: { ...geometry, description: 'Omitted = unchanged, null = removed.' },
      version: { type: 'integer', minimum: 1, description: 'The version the edit was based on; stale → 409 with the current record.' },
    },
    required: ['properties'],
  },
  {
    $id: 'FeatureBody',
    type: 'object',
    additionalProperties: false,
    properties: {
      type: { type: 'string', enum: ['Feature'] },
      geometry,
      properties,
      version: { type: 'integer', minimum: 1 },
    },
    required: ['type', 'geometry', 'properties'],
  },
  {
    $id: 'IdsBody',
    type: 'object',
    additionalProperties: false,
    properties: { tableId: id, ids: { type: 'array', items: id, maxItems: MAX_IDS } },
    required: ['tableId', 'ids'],
  },
  {
    $id: 'ArchiveBody',
    type: 'object',
    additionalProperties: false,
    properties: {
      tableId: id,
      ids: { type: 'array', items: id, maxItems: MAX_IDS },
      archived: { type: 'boolean', default: true, description: 'false restores archived records.' },
    },
    required: ['tableId', 'ids'],
  },
  {
    $id: 'BulkOperation',
    type: 'object',
    additionalProperties: false,
    description: 'insert: tableId, properties, geometry?, localId?; update: tableId, id, properties, geometry?, version?; delete/archive: tableId, id.',
    properties: {
      opId: { type: 'string', minLength: 1, maxLength: 100, description: 'Client-made id (UUID); an operation with a known opId is not applied again.' },
      kind: { type: 'string', enum: ['insert', 'update', 'delete', 'archive'] },
      tableId: id,
      id: { ...id, description: 'update/delete/archive: the record (a localId of an insert earlier in the call is accepted).' },
      localId: { type: 'integer', minimum: 1, description: 'insert: the offline id (< 10,000,000) the client used; answered with the new id.' },
      properties,
      geometry,
      version: { type: 'integer', minimum: 1 },
    },
    required: ['opId', 'kind', 'tableId'],
    allOf: [
      { if: { properties: { kind: { const: 'insert' } } }, then: { required: ['properties'] } },
      { if: { properties: { kind: { const: 'update' } } }, then: { required: ['id', 'properties'] } },
      { if: { properties: { kind: { enum: ['delete', 'archive'] } } }, then: { required: ['id'] } },
    ],
  },
  {
    $id: 'BulkBody',
    type: 'object',
    additionalProperties: false,
    properties: { operations: { type: 'array', minItems: 1, maxItems: MAX_BULK_OPERATIONS, items: { $ref: 'BulkOperation#' } } },
    required: ['operations'],
  },
  {
    $id: 'BulkResult',
    type: 'object',
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            opId: { type: 'string' },
            status: { type: 'string', enum: ['applied', 'duplicate'] },
            id: { type: 'integer' },
            localId: { type: 'integer' },
            record: { $ref: 'WireRecord#' },
          },
          required: ['opId', 'status', 'id'],
        },
      },
    },
    required: ['results'],
  },
  {
    $id: 'SpatialBody',
    type: 'object',
    additionalProperties: false,
    properties: {
      tableIds: { type: 'array', items: id, minItems: 1, maxItems: 100 },
      geometry: { type: 'object', additionalProperties: true, description: 'GeoJSON geometry (or Feature/FeatureCollection) to intersect.' },
      page: { type: 'integer', minimum: 1, default: 1 },
      perPage: { type: 'integer', minimum: 1, maximum: PAGE_SIZE, default: PAGE_SIZE },
    },
    required: ['tableIds', 'geometry'],
  },
  {
    $id: 'RolesResult',
    type: 'object',
    properties: {
      roles: { type: 'array', items: { type: 'string', enum: ['editor', 'reader'] } },
      editor: { type: 'boolean' },
      reader: { type: 'boolean' },
    },
    required: ['roles', 'editor', 'reader'],
  },
] as const;

export function registerSharedSchemas(app: FastifyInstance): void {
  for (const schema of sharedSchemas) app.addSchema(schema);
}

/** Error answers every authenticated route may give. */
export const errorResponses = {
  400: { $ref: 'ApiError#' },
  401: { $ref: 'ApiError#' },
  403: { $ref: 'ApiError#' },
  404: { $ref: 'ApiError#' },
} as const;

/** Error answers of write routes (adds 409 version conflict, 413 too large, 422 key reuse). */
export const writeErrorResponses = {
  ...errorResponses,
  409: { $ref: 'ApiError#' },
  413: { $ref: 'ApiError#' },
  422: { $ref: 'ApiError#' },
} as const;

export const projectParams = {
  type: 'object',
  properties: { projectId: id },
  required: ['projectId'],
} as const;

export const idempotencyHeaders = {
  type: 'object',
  properties: {
    'idempotency-key': { type: 'string', description: 'Client-made unique key; a retried request with the same key applies once and gets the first response.' },
  },
} as const;
