/** What the audit screen is given besides the trail: the farmers to filter by, and the screen a changed record opens on. */
import type { AppConfig } from '../../../common/schemas/config';
import { isLocalId } from '../../../common/record-id';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import { routeHref } from '../../lib/links';

/** The screens a changed record opens on: a form's own screen, the set-up editors of the rest. */
const RECORD_LINKS: Readonly<Record<string, (recordId: number) => string>> = {
  forms: (formId) => routeHref('form', { formId }),
  durations: (recordId) => routeHref('setup-season', { recordId }),
  farmers: (recordId) => routeHref('setup-farmer', { recordId }),
  areas: (recordId) => routeHref('setup-area', { recordId }),
  paths: (recordId) => routeHref('setup-path', { recordId }),
};

export function recordHref(table: string, recordId: number): string | undefined {
  return RECORD_LINKS[table]?.(recordId);
}

/** The farmers' rows as the filter lists them, by name. */
export function auditFarmers(config: AppConfig, rows: readonly StoredRecord[]): Array<{ id: number; name: string }> {
  return (
    rows
      // A farmer made offline and not delivered yet has no changes on the server.
      .filter((f) => !isLocalId(f.id))
      .map((f) => ({ id: f.id, name: readRow(config, 'farmers', f).name || `#${f.id}` }))
      .sort((a, b) => a.name.localeCompare(b.name, 'sl') || a.id - b.id)
  );
}
