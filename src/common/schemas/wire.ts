/**
 * The wire contract between client and server (docs/architecture.md, Wire contract); the
 * payload field names are ours. Server JSON schemas (src/server) and RTK Query endpoints
 * (src/client/lib/api) are both typed from this file.
 */
import type { Geometry } from 'geojson';
import type { SearchRequest } from '../filter';

export type { SearchRequest };

/** Property values keyed by column id (as a string key: JSON object keys are strings). */
export type Properties = Record<string, unknown>;

/** Fields every stored row carries. */
interface RowMeta {
  id: number;
  tableId: number;
  deleted: boolean;
  archived: boolean;
  /** ISO 8601 timestamps, set by the server. */
  createdAt: string;
  updatedAt: string;
  /** Incremented on every change; updates send the version they were based on. */
  version: number;
}

export interface WireRecord extends RowMeta {
  properties: Properties;
  /** Present when the row has a geometry. */
  geometry?: Geometry | null;
}

/** A feature is a record with a GeoJSON geometry; row meta travels as foreign members. */
export interface WireFeature extends RowMeta {
  type: 'Feature';
  geometry: Geometry | null;
  properties: Properties;
}

export interface RecordPage {
  records: WireRecord[];
  totalCount: number;
}

export interface FeaturePage {
  features: WireFeature[];
  totalCount: number;
}

export interface IdPage {
  ids: number[];
  totalCount: number;
}

/** POST /api/Records/{projectId} */
export interface CreateRecordBody {
  tableId: number;
  properties: Properties;
  geometry?: Geometry | null;
}

/** PUT /api/Records/{projectId}/{tableId}/{recordId}; `version` = the version the edit was based on. */
export interface UpdateRecordBody {
  properties: Properties;
  geometry?: Geometry | null;
  version?: number;
}

/** POST /api/Features/{projectId}/{tableId} and PUT …/{featureId}. */
export interface FeatureBody {
  type: 'Feature';
  geometry: Geometry | null;
  properties: Properties;
  version?: number;
}

/** POST …/ids, …/delete, …/archive */
export interface IdsBody {
  tableId: number;
  ids: number[];
}

export interface IdsResult {
  ids: number[];
}

/** One operation of a bulk call; `opId` is a client-made UUID the server dedups on (docs/architecture.md, Sync rules). */
export type BulkOperation =
  | { opId: string; kind: 'insert'; tableId: number; properties: Properties; geometry?: Geometry | null; localId?: number }
  | { opId: string; kind: 'update'; tableId: number; id: number; properties: Properties; geometry?: Geometry | null; version?: number }
  | { opId: string; kind: 'delete'; tableId: number; id: number }
  | { opId: string; kind: 'archive'; tableId: number; id: number };

/** POST …/bulk */
export interface BulkBody {
  operations: BulkOperation[];
}

export interface BulkResultItem {
  opId: string;
  /** 'applied' = applied by this call; 'duplicate' = applied before (same opId), not again. */
  status: 'applied' | 'duplicate';
  id: number;
  /** For inserts: the local id the client sent, so it can remap it. */
  localId?: number;
  record?: WireRecord;
}

export interface BulkResult {
  results: BulkResultItem[];
}

/** Extent (bounding box) in WGS84 degrees, sent as extent[minX]=…&extent[minY]=… */
export interface Extent {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** POST /api/Records/{projectId}/spatial */
export interface SpatialBody {
  tableIds: number[];
  geometry: Geometry;
  page?: number;
  perPage?: number;
}

export interface AttachmentInfo {
  id: number;
  tableId: number;
  recordId: number;
  /** The attachment slot of the table (e.g. "photos" of an indicator). */
  tableAttachmentInfoId: number;
  name: string;
  mimeType: string;
  size: number;
  createdAt: string;
  /** Whether a thumbnail exists (images only). */
  hasThumb: boolean;
  /**
   * The JPEG thumbnail as a data: URL — only in attachmentinfo answers asked with thumb=true, so
   * a download for offline use gets a record's thumbnails in one call.
   */
  thumbnail?: string;
}

/** GET …/record/{recordId}/attachmentinfo/{tableAttachmentInfoId} */
export interface AttachmentInfoList {
  attachments: AttachmentInfo[];
}

/** POST …/full: a record or feature plus its attachments in one multipart request. */
export interface FullResult {
  record: WireRecord;
  attachments: AttachmentInfo[];
  /** When the record was created offline: the local id it had, so the client can remap it. */
  localId?: number;
}

/** GET /api/PublicApp/{projectId}/roles — anyone who is neither is a farmer. */
export interface RolesResult {
  roles: Array<'editor' | 'reader'>;
  editor: boolean;
  reader: boolean;
}

/** GET /keycloak.json. */
export interface KeycloakJson {
  'auth-server-url': string;
  realm: string;
  resource: string;
  'public-client'?: boolean;
  'ssl-required'?: string;
}

/** One change of a record (who, when, old → new). */
export interface HistoryEntry {
  id: number;
  recordId: number;
  action: 'insert' | 'update' | 'delete' | 'archive' | 'unarchive';
  /** E-mail (or subject) of the user who made the change. */
  changedBy: string | null;
  changedAt: string;
  old: { properties: Properties; geometry: Geometry | null } | null;
  new: { properties: Properties; geometry: Geometry | null } | null;
}

/** GET /api/Features/{projectId}/{tableId}/{recordId}/detailed: the feature, its attachments and history. */
export interface DetailedFeature extends WireFeature {
  attachments: AttachmentInfo[];
  history: HistoryEntry[];
}

/** POST /api/Records/{projectId}/archive; `archived: false` restores an archived record (editors only). */
export interface ArchiveBody extends IdsBody {
  archived?: boolean;
}

/** One row of an import's dry run or commit: what happens to it, and why when it is refused. */
interface ImportRowReport {
  /** 1-based number of the data row (CSV: the line after the header is row 1; features in file order). */
  row: number;
  action: 'create' | 'update' | 'refuse';
  reason?: string;
  /** The row's KMG-MID (farmers) or GERK-PID (meadows). */
  key?: string;
}

/** POST /api/Import/dry-run and /commit: the report per file. */
export interface ImportReport {
  created: number;
  updated: number;
  refused: number;
  rows: ImportRowReport[];
}
