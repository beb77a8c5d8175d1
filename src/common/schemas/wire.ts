/**
 * The wire contract between client and server (docs/architecture.md, Wire contract), written once
 * as TypeBox schemas: each schema is a JSON Schema the server registers for validation and the
 * OpenAPI document, and each exported type is derived from its schema with `Static`, so the two
 * cannot drift apart. The payload field names are ours.
 *
 * The client imports only the types from here (`import type`): the schema values and TypeBox stay
 * out of its bundle (an ESLint rule keeps it so).
 *
 * Bodies reject unknown top-level fields (no mass assignment of id, version or timestamps);
 * `properties` is checked against the table's columns by the repositories, and filters by the
 * filter compiler (clearer messages than a recursive schema). Enumerations are `{type: 'string',
 * enum}` and nullable values carry `nullable: true`, as OpenAPI 3.0 writes them.
 */
import { Type, type SchemaOptions, type Static, type TSchema } from '@sinclair/typebox';
import type { Geometry } from 'geojson';
import { PAGE_SIZE } from '../constants';
import { REVIEW_STATES } from '../review';
import { COMPARISONS, LOGICAL_OPERATORS, META_COLUMNS, type FilterNode } from '../filter';
import { TEXT_SEARCH_MAX_LIMIT, TEXT_SEARCH_MAX_QUERY_LENGTH } from '../text-search';

/** Largest bulk call (the benchmark sends 10,000 records in one call; clients send ≤ 200). */
const MAX_BULK_OPERATIONS = 10_000;
const MAX_IDS = 10_000;

// ---- Building blocks --------------------------------------------------------------------------

/** One of a fixed list of strings, as `{type: 'string', enum}`. */
function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * A reference to a registered schema by its `$id` (`{ $ref: 'WireRecord#' }`), typed as that
 * schema: the OpenAPI document names it as a component instead of repeating it.
 */
export function ref<T extends TSchema>(schema: T) {
  if (!schema.$id) throw new Error('ref: the schema has no $id');
  return Type.Unsafe<Static<T>>({ $ref: `${schema.$id}#` });
}

const Id = (options: SchemaOptions = {}) => Type.Integer({ minimum: 1, ...options });

const PropertiesSchema = (description = 'Property values keyed by column id (see config.json → tables → columns).') =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description });

/** Property values keyed by column id (as a string key: JSON object keys are strings). */
export type Properties = Static<ReturnType<typeof PropertiesSchema>>;

const GeometrySchema = (description = 'GeoJSON geometry (Point … GeometryCollection); a Feature or FeatureCollection is unwrapped. null = none.') =>
  Type.Unsafe<Geometry | null>({ type: 'object', nullable: true, additionalProperties: true, description });

/** Fields every stored row carries; timestamps are ISO 8601, set by the server; `version` grows on every change. */
const rowMeta = {
  id: Type.Integer(),
  tableId: Type.Integer(),
  deleted: Type.Boolean(),
  archived: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  version: Type.Integer(),
};

const ColumnId = Type.Union([Type.Integer(), StringEnum(META_COLUMNS)], {
  description: `A column id of the table or a record field: ${META_COLUMNS.join(', ')}.`,
});

// ---- Errors -----------------------------------------------------------------------------------

export const ApiError = Type.Object(
  {
    status: Type.Integer(),
    message: Type.String(),
    detail: Type.Optional(Type.String()),
    current: Type.Optional(Type.Unknown({ description: '409 only: the current server version of the record.' })),
    opId: Type.Optional(Type.String({ description: 'bulk only: the operation that failed.' })),
    reviewState: Type.Optional(
      StringEnum(REVIEW_STATES, {
        description:
          '409 only: the farmer tried to change a form (its indicators, photos) that is locked in this review state; `current` is the stored record they tried to change (for a new indicator, its form).',
      }),
    ),
    duplicateOf: Type.Optional(
      Type.Integer({
        description:
          '409 on an insert only: the live row that already holds the same unique values (one live indicator per key on a form); `current` is that row.',
      }),
    ),
  },
  { $id: 'ApiError', description: 'Every error: the catalogue message for the status, and what was wrong.' },
);
/** Every error answer's body. */
export type ApiError = Static<typeof ApiError>;

// ---- Records and features ---------------------------------------------------------------------

export const WireRecord = Type.Object({ ...rowMeta, properties: PropertiesSchema(), geometry: Type.Optional(GeometrySchema()) }, { $id: 'WireRecord' });
/** A stored row; `geometry` is present when the row has one. */
export type WireRecord = Static<typeof WireRecord>;

const featureFields = { type: StringEnum(['Feature']), ...rowMeta, geometry: GeometrySchema(), properties: PropertiesSchema() };

export const WireFeature = Type.Object(featureFields, { $id: 'WireFeature' });
/** A feature is a record with a GeoJSON geometry; row meta travels as foreign members. */
export type WireFeature = Static<typeof WireFeature>;

export const AttachmentInfo = Type.Object(
  {
    id: Type.Integer(),
    tableId: Type.Integer(),
    recordId: Type.Integer(),
    /** The attachment slot of the table (e.g. "photos" of an indicator). */
    tableAttachmentInfoId: Type.Integer(),
    name: Type.String(),
    mimeType: Type.String(),
    size: Type.Integer(),
    createdAt: Type.String(),
    /** Whether a thumbnail exists (images only). */
    hasThumb: Type.Boolean(),
    /**
     * The JPEG thumbnail as a data: URL — only in attachmentinfo answers asked with thumb=true, so
     * a download for offline use gets a record's thumbnails in one call.
     */
    thumbnail: Type.Optional(Type.String({ description: 'data:image/jpeg;base64,… (thumb=true only)' })),
  },
  { $id: 'AttachmentInfo' },
);
export type AttachmentInfo = Static<typeof AttachmentInfo>;

/** A record's `{properties, geometry}` before or after a change; null when there is none (before an insert). */
const changeSide = () =>
  Type.Unsafe<{ properties: Properties; geometry: Geometry | null } | null>({ type: 'object', nullable: true, additionalProperties: true });

export const HistoryEntry = Type.Object(
  {
    id: Type.Integer(),
    recordId: Type.Integer(),
    action: StringEnum(['insert', 'update', 'delete', 'archive', 'unarchive']),
    /** E-mail (or subject) of the user who made the change. */
    changedBy: Type.Unsafe<string | null>({ type: 'string', nullable: true }),
    changedAt: Type.String(),
    old: changeSide(),
    new: changeSide(),
  },
  { $id: 'HistoryEntry' },
);
/** One change of a record (who, when, old → new). */
export type HistoryEntry = Static<typeof HistoryEntry>;

export const DetailedFeature = Type.Object(
  { ...featureFields, attachments: Type.Array(ref(AttachmentInfo)), history: Type.Array(ref(HistoryEntry)) },
  { $id: 'DetailedFeature' },
);
/** GET /api/Features/{projectId}/{tableId}/{recordId}/detailed: the feature, its attachments and history. */
export type DetailedFeature = Static<typeof DetailedFeature>;

export const RecordPage = Type.Object({ records: Type.Array(ref(WireRecord)), totalCount: Type.Integer() }, { $id: 'RecordPage' });
export type RecordPage = Static<typeof RecordPage>;

export const FeaturePage = Type.Object({ features: Type.Array(ref(WireFeature)), totalCount: Type.Integer() }, { $id: 'FeaturePage' });
export type FeaturePage = Static<typeof FeaturePage>;

export const IdPage = Type.Object({ ids: Type.Array(Type.Integer()), totalCount: Type.Integer() }, { $id: 'IdPage' });
export type IdPage = Static<typeof IdPage>;

export const IdsResult = Type.Object({ ids: Type.Array(Type.Integer()) }, { $id: 'IdsResult' });
export type IdsResult = Static<typeof IdsResult>;

// ---- Queries ----------------------------------------------------------------------------------

const Sort = Type.Object({ columnId: ColumnId, direction: StringEnum(['asc', 'desc']) }, { additionalProperties: false });
export type Sort = Static<typeof Sort>;

export const SearchRequest = Type.Object(
  {
    tableId: Id(),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: '1-based page number.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE, default: PAGE_SIZE })),
    filters: Type.Optional(
      Type.Unsafe<FilterNode>({
        type: 'object',
        description:
          `Filter tree: {kind:"expression", operator: ${LOGICAL_OPERATORS.join('|')}, nodes:[…]} or ` +
          `{kind:"filter", columnId, comparison, value?}; comparisons: ${COMPARISONS.join(', ')}.`,
        additionalProperties: true,
      }),
    ),
    sorts: Type.Optional(Type.Array(Sort, { maxItems: 8 })),
    /** Deleted records are excluded unless asked for. */
    includeDeleted: Type.Optional(Type.Boolean({ default: false })),
  },
  { $id: 'SearchRequest', additionalProperties: false },
);
/** Body of POST …/search and …/search/ids. */
export type SearchRequest = Static<typeof SearchRequest>;

/** Extent (bounding box) in WGS84 degrees, sent as extent[minX]=…&extent[minY]=… */
export const Extent = Type.Object(
  { minX: Type.Number(), minY: Type.Number(), maxX: Type.Number(), maxY: Type.Number() },
  { description: 'Bounding box in WGS84 degrees: extent[minX]=…&extent[minY]=…&extent[maxX]=…&extent[maxY]=…' },
);
export type Extent = Static<typeof Extent>;

/** Repeated query key: tableIds=1&tableIds=2. */
export const TableIdsQuery = Type.Array(Id(), { maxItems: 100, description: 'Repeated key: tableIds=1&tableIds=2' });

export const SpatialBody = Type.Object(
  {
    tableIds: Type.Array(Id(), { minItems: 1, maxItems: 100 }),
    geometry: Type.Unsafe<Geometry>({
      type: 'object',
      additionalProperties: true,
      description: 'GeoJSON geometry (or Feature/FeatureCollection) to intersect.',
    }),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: PAGE_SIZE, default: PAGE_SIZE })),
  },
  { $id: 'SpatialBody', additionalProperties: false },
);
/** POST /api/Records/{projectId}/spatial */
export type SpatialBody = Static<typeof SpatialBody>;

// ---- Writes -----------------------------------------------------------------------------------

export const CreateRecordBody = Type.Object(
  { tableId: Id(), properties: PropertiesSchema(), geometry: Type.Optional(GeometrySchema()) },
  { $id: 'CreateRecordBody', additionalProperties: false },
);
/** POST /api/Records/{projectId} */
export type CreateRecordBody = Static<typeof CreateRecordBody>;

export const UpdateRecordBody = Type.Object(
  {
    properties: PropertiesSchema('Merged into the stored properties: given keys replace, null clears, omitted keys stay.'),
    geometry: Type.Optional(GeometrySchema('Omitted = unchanged, null = removed.')),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'The version the edit was based on; stale → 409 with the current record.' })),
  },
  { $id: 'UpdateRecordBody', additionalProperties: false },
);
/** PUT /api/Records/{projectId}/{tableId}/{recordId}; `version` = the version the edit was based on. */
export type UpdateRecordBody = Static<typeof UpdateRecordBody>;

export const FeatureBody = Type.Object(
  { type: StringEnum(['Feature']), geometry: GeometrySchema(), properties: PropertiesSchema(), version: Type.Optional(Type.Integer({ minimum: 1 })) },
  { $id: 'FeatureBody', additionalProperties: false },
);
/** POST /api/Features/{projectId}/{tableId} and PUT …/{featureId}. */
export type FeatureBody = Static<typeof FeatureBody>;

const idsFields = { tableId: Id(), ids: Type.Array(Id(), { maxItems: MAX_IDS }) };

export const IdsBody = Type.Object(idsFields, { $id: 'IdsBody', additionalProperties: false });
/** POST …/ids, …/delete */
export type IdsBody = Static<typeof IdsBody>;

export const ArchiveBody = Type.Object(
  { ...idsFields, archived: Type.Optional(Type.Boolean({ default: true, description: 'false restores archived records.' })) },
  { $id: 'ArchiveBody', additionalProperties: false },
);
/** POST /api/Records/{projectId}/archive; `archived: false` restores an archived record (editors only). */
export type ArchiveBody = Static<typeof ArchiveBody>;

const BULK_KINDS = ['insert', 'update', 'delete', 'archive'] as const;

export const BulkOperation = Type.Object(
  {
    opId: Type.String({ minLength: 1, maxLength: 100, description: 'Client-made id (UUID); an operation with a known opId is not applied again.' }),
    kind: StringEnum(BULK_KINDS),
    tableId: Id(),
    id: Type.Optional(Id({ description: 'update/delete/archive: the record (a localId of an insert earlier in the call is accepted).' })),
    localId: Type.Optional(Type.Integer({ minimum: 1, description: 'insert: the offline id (< 10,000,000) the client used; answered with the new id.' })),
    properties: Type.Optional(PropertiesSchema()),
    geometry: Type.Optional(GeometrySchema()),
    version: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  {
    $id: 'BulkOperation',
    additionalProperties: false,
    description: 'insert: tableId, properties, geometry?, localId?; update: tableId, id, properties, geometry?, version?; delete/archive: tableId, id.',
    // The fields each kind needs (the BulkOperation type below says the same).
    allOf: [
      { if: { properties: { kind: { const: 'insert' } } }, then: { required: ['properties'] } },
      { if: { properties: { kind: { const: 'update' } } }, then: { required: ['id', 'properties'] } },
      { if: { properties: { kind: { enum: ['delete', 'archive'] } } }, then: { required: ['id'] } },
    ],
  },
);

type BulkFields = Static<typeof BulkOperation>;
/** An operation of one kind: the schema's fields, with those the kind's `if/then` rule requires made required. */
type BulkOperationOf<K extends BulkFields['kind'], Needed extends keyof BulkFields, Allowed extends keyof BulkFields = never> = Pick<
  BulkFields,
  'opId' | 'tableId'
> & {
  kind: K;
} & Required<Pick<BulkFields, Needed>> &
  Partial<Pick<BulkFields, Allowed>>;

/** One operation of a bulk call; `opId` is a client-made UUID the server dedups on (docs/architecture.md, Sync rules). */
export type BulkOperation =
  | BulkOperationOf<'insert', 'properties', 'geometry' | 'localId'>
  | BulkOperationOf<'update', 'id' | 'properties', 'geometry' | 'version'>
  | BulkOperationOf<'delete', 'id'>
  | BulkOperationOf<'archive', 'id'>;

export const BulkBody = Type.Object(
  { operations: Type.Array(Type.Unsafe<BulkOperation>(ref(BulkOperation)), { minItems: 1, maxItems: MAX_BULK_OPERATIONS }) },
  { $id: 'BulkBody', additionalProperties: false },
);
/** POST …/bulk */
export type BulkBody = Static<typeof BulkBody>;

const BulkResultItem = Type.Object({
  opId: Type.String(),
  /** 'applied' = applied by this call; 'duplicate' = applied before (same opId), not again. */
  status: StringEnum(['applied', 'duplicate']),
  id: Type.Integer(),
  /** For inserts: the local id the client sent, so it can remap it. */
  localId: Type.Optional(Type.Integer()),
  record: Type.Optional(ref(WireRecord)),
});
export type BulkResultItem = Static<typeof BulkResultItem>;

export const BulkResult = Type.Object({ results: Type.Array(BulkResultItem) }, { $id: 'BulkResult' });
export type BulkResult = Static<typeof BulkResult>;

// ---- Attachments, roles, site -----------------------------------------------------------------

/** GET …/record/{recordId}/attachmentinfo/{tableAttachmentInfoId} */
export const AttachmentInfoList = Type.Object({ attachments: Type.Array(ref(AttachmentInfo)) });
export type AttachmentInfoList = Static<typeof AttachmentInfoList>;

/** POST …/full: a record or feature plus its attachments in one multipart request. */
export const FullResult = Type.Object({
  record: ref(WireRecord),
  attachments: Type.Array(ref(AttachmentInfo)),
  /** When the record was created offline: the local id it had, so the client can remap it. */
  localId: Type.Optional(Type.Integer()),
});
export type FullResult = Static<typeof FullResult>;

export const RolesResult = Type.Object(
  { roles: Type.Array(StringEnum(['editor', 'reader'])), editor: Type.Boolean(), reader: Type.Boolean() },
  { $id: 'RolesResult' },
);
/** GET /api/PublicApp/{projectId}/roles — anyone who is neither is a farmer. */
export type RolesResult = Static<typeof RolesResult>;

/** GET /keycloak.json. */
export const KeycloakJson = Type.Object({
  'auth-server-url': Type.String(),
  realm: Type.String(),
  resource: Type.String(),
  'public-client': Type.Optional(Type.Boolean()),
  'ssl-required': Type.Optional(Type.String()),
});
export type KeycloakJson = Static<typeof KeycloakJson>;

/** One row of an import's dry run or commit: what happens to it, and why when it is refused. */
const ImportRowReport = Type.Object({
  /** 1-based number of the data row (CSV: the line after the header is row 1; features in file order). */
  row: Type.Integer(),
  action: StringEnum(['create', 'update', 'refuse']),
  reason: Type.Optional(Type.String()),
  /** The row's KMG-MID (farmers) or GERK-PID (meadows). */
  key: Type.Optional(Type.String()),
});

/** POST /api/Import/dry-run and /commit: the report per file. */
export const ImportReport = Type.Object({ created: Type.Integer(), updated: Type.Integer(), refused: Type.Integer(), rows: Type.Array(ImportRowReport) });
export type ImportReport = Static<typeof ImportReport>;

// ---- Route pieces ------------------------------------------------------------------------------

export const ProjectParams = Type.Object({ projectId: Id() });
export const TableParams = Type.Object({ projectId: Id(), tableId: Id() });
export const RecordParams = Type.Object({ projectId: Id(), tableId: Id(), recordId: Id() });
export const AttachmentParams = Type.Object({ projectId: Id(), recordAttachmentId: Id() });
export const AttachmentInfoParams = Type.Object({ projectId: Id(), recordId: Id(), tableAttachmentInfoId: Id() });

/** GET …/search/{profileId}/{limit}/{page}/{query} */
export const TextSearchParams = Type.Object({
  projectId: Id(),
  profileId: Id(),
  limit: Type.Integer({ minimum: 1, maximum: TEXT_SEARCH_MAX_LIMIT }),
  page: Type.Integer({ minimum: 1 }),
  query: Type.String({ minLength: 1, maxLength: TEXT_SEARCH_MAX_QUERY_LENGTH }),
});

/** ?thumb=true asks for the JPEG thumbnail (attachment) or adds the thumbnails (attachmentinfo). */
export const ThumbQuery = Type.Object(
  { thumb: Type.Optional(Type.Boolean({ default: false, description: 'true = the JPEG thumbnail (images only)' })) },
  { additionalProperties: false },
);

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({ description: 'Client-made unique key; a retried request with the same key applies once and gets the first response.' }),
  ),
});

/**
 * The schemas the server registers by `$id` (routes refer to them with `ref`); the OpenAPI
 * document lists them as components under these names. A schema referenced by `ref` must be here.
 */
export const REGISTERED_SCHEMAS: readonly TSchema[] = [
  ApiError,
  WireRecord,
  WireFeature,
  AttachmentInfo,
  HistoryEntry,
  DetailedFeature,
  RecordPage,
  FeaturePage,
  IdPage,
  IdsResult,
  SearchRequest,
  CreateRecordBody,
  UpdateRecordBody,
  FeatureBody,
  IdsBody,
  ArchiveBody,
  BulkOperation,
  BulkBody,
  BulkResult,
  SpatialBody,
  RolesResult,
];
