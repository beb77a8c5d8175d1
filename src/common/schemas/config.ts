/**
 * Shape of GET /config.json (docs/architecture.md, Data model): the project, its table and column ids, the form
 * kinds of the scheme with their indicator definitions and scoring rules, base maps and auth mode.
 */
import type { ColumnName, TableKey } from './project';

export interface TableConfig<T extends TableKey = TableKey> {
  id: number;
  /** Column name → column id. */
  columns: Record<ColumnName<T>, number>;
  /** Attachment slots of the table: name → tableAttachmentInfoId. */
  attachments?: Record<string, number>;
}

export type TablesConfig = { [T in TableKey]: TableConfig<T> };

/** `date` (added for management questions) holds a calendar date as 'YYYY-MM-DD'. */
type IndicatorValueKind = 'presence' | 'count' | 'choice' | 'percent' | 'text' | 'date';

/** Flower colour groups of the scheme, used to group indicator plants in the checklist. */
type FlowerColour = 'bela' | 'modro-vijolicna' | 'rdece-rozna' | 'rumeno-oranzna';

export interface IndicatorDefinition {
  key: string;
  /** Slovenian name; `latin` for plants. */
  name: string;
  latin?: string;
  description: string;
  /** Path of an illustration served with the app (works offline through the precache). */
  image?: string;
  valueKind: IndicatorValueKind;
  choices?: Array<{ value: string; label: string }>;
  required?: boolean;
  group?: string;
  /** Flower colour of an indicator plant. */
  colour?: FlowerColour;
  /** Unit shown after a number (e.g. '%'). */
  unit?: string;
  /** Upper bound of a count value (validation). */
  max?: number;
}

/** A section of a form's checklist; indicators name it in `group`. */
export interface IndicatorGroup {
  key: string;
  title: string;
  description?: string;
}

/** A scoring rule: each indicator contributes points by its value; the sum is clamped to 0..100. */
export interface ScoringRule {
  version: string;
  base: number;
  contributions: Array<{
    key: string;
    /**
     * Points for presence (true) or per unit of a count/percent, or per choice value; for a date,
     * the points when the date falls on or after `dateFrom`.
     */
    points?: number;
    perChoice?: Record<string, number>;
    /** Bounds of this contribution's points. */
    max?: number;
    min?: number;
    /** Date values: month and day 'MM-DD' from which `points` apply; earlier dates get `pointsBefore`. */
    dateFrom?: string;
    pointsBefore?: number;
  }>;
  /** Slovenian summary of how the score is made, shown to users. */
  description?: string;
}

/**
 * A payment band of a form kind: scores above `above` (the lowest band has none) earn `eurPerHa`
 * euros per hectare of the meadow. Bands are listed from the lowest up.
 */
export interface PaymentBand {
  above?: number;
  /** Slovenian name of the band ('dobro'). */
  name: string;
  eurPerHa: number;
}

export interface FormKind {
  id: number;
  title: string;
  description: string;
  indicators: IndicatorDefinition[];
  scoring: ScoringRule;
  /** Checklist sections in display order. */
  groups?: IndicatorGroup[];
  /** The payment per hectare by score band (the informative payment preview); none: not paid by result. */
  payment?: { bands: PaymentBand[] };
}

export interface BaseMapConfig {
  id: string;
  name: string;
  /** A MapLibre style URL, or a raster tile URL template with {z}/{x}/{y}. */
  style?: string;
  tiles?: string[];
  attribution?: string;
  minZoom?: number;
  maxZoom?: number;
}

export type AuthMode = 'keycloak' | 'basic' | 'none';

export interface AppConfig {
  version: string;
  projectId: number;
  /** Profile used by GET …/search/{profileId}/… text search. */
  searchProfileId: number;
  tables: TablesConfig;
  /** Form kinds keyed by name, each with an id. */
  forms: Record<string, FormKind>;
  basemaps: BaseMapConfig[];
  auth: { mode: AuthMode };
}
