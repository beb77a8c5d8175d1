/**
 * The edits the sync figures drain: what a field day makes, many times over. Per form one insert
 * of the form (under a durationPath link), an insert of each indicator of its kind (children
 * naming the form's offline id), two changed answers (updates of those indicators, still offline
 * rows) and an update of the form — 28 edits, so bulk calls of 200 cut across forms as they do in
 * the app (later calls update and rescore rows that earlier calls inserted). The last form may be
 * cut short to give exactly `count` edits. Offline ids count up from 1 (below LOCAL_ID_BOUND).
 * Shared by the page that drains them (sync-drain-entry.ts) and the raw insert floor of the same
 * rows (bench/floor.ts).
 */
import type { AppConfig, IndicatorDefinition } from '../../src/common/schemas/config';
import type { Properties } from '../../src/common/schemas/wire';

/** Answers changed after the form was filled in. */
const CHANGED = 2;

export interface FieldDayEdit {
  kind: 'insert' | 'update';
  tableId: number;
  /** Offline id of the row. */
  id: number;
  /** The row's whole properties after the edit (saveEdit queues updates whole). */
  properties: Properties;
  /** Reference columns (remapped when the parent gets its server id). */
  refs: string[];
  /** Offline ids among the values of `refs`. */
  refIds: number[];
}

/** A valid answer of each kind; `flip` gives the changed one. */
function answer(definition: IndicatorDefinition, flip: boolean): unknown {
  switch (definition.valueKind) {
    case 'presence':
      return !flip;
    case 'count':
      return flip ? 2 : 1;
    case 'percent':
      return flip ? 20 : 10;
    case 'choice':
      return definition.choices?.[flip ? definition.choices.length - 1 : 0]?.value ?? null;
    case 'date':
      return flip ? '2026-06-20' : '2026-06-15';
    case 'text':
      return flip ? 'popravljena opomba' : 'opomba';
  }
}

export function fieldDayEdits(config: AppConfig, linkId: number, count: number, tag: string): FieldDayEdit[] {
  const f = config.tables.forms;
  const ind = config.tables.indicators;
  const kind = Object.values(config.forms)[0]!;
  const formParent = String(f.columns.parent);
  const indicatorParent = String(ind.columns.parent);
  const edits: FieldDayEdit[] = [];
  let nextId = 1;
  for (let form = 0; edits.length < count; form++) {
    const formId = nextId++;
    const formProps: Properties = { [formParent]: linkId, [f.columns.form_id]: kind.id, [f.columns.note]: `${tag} ${form}`, [f.columns.completed]: false };
    edits.push({ kind: 'insert', tableId: f.id, id: formId, properties: formProps, refs: [formParent], refIds: [] });
    const indicators = kind.indicators.map((definition) => {
      const id = nextId++;
      const properties = { [indicatorParent]: formId, [ind.columns.key]: definition.key, [ind.columns.value]: answer(definition, false) } as Properties;
      edits.push({ kind: 'insert', tableId: ind.id, id, properties, refs: [indicatorParent], refIds: [formId] });
      return { id, properties, definition };
    });
    for (const { id, properties, definition } of indicators.slice(0, CHANGED)) {
      edits.push({
        kind: 'update',
        tableId: ind.id,
        id,
        properties: { ...properties, [ind.columns.value]: answer(definition, true) } as Properties,
        refs: [indicatorParent],
        refIds: [formId],
      });
    }
    edits.push({
      kind: 'update',
      tableId: f.id,
      id: formId,
      properties: { ...formProps, [f.columns.note]: `${tag} ${form} (popravljeno)` },
      refs: [formParent],
      refIds: [],
    });
  }
  return edits.slice(0, count);
}
