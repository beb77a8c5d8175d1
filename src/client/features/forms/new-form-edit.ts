/**
 * The outbox edit that creates a form of a kind in a season's duration-path: not completed, with
 * the kind's base score and its scoring rule's version (the server recomputes both on every write).
 */
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import { toProperties } from '../../lib/db/model';
import type { LocalEdit } from '../../lib/db/outbox';
import { refKeysFor } from '../../lib/db/refs';

/** Throws when the path has no duration-path this season or the kind is unknown. */
export function newFormEdit(config: AppConfig, durationPathId: number | null, kindId: number): LocalEdit {
  const kind = formKindById(kindId, config.forms);
  if (durationPathId === null || !kind) throw new Error('no duration path');
  return {
    kind: 'insert',
    projectId: config.projectId,
    tableId: config.tables.forms.id,
    properties: toProperties(config, 'forms', {
      parent: durationPathId,
      form_id: kindId,
      completed: false,
      score: kind.scoring.base,
      rule_version: kind.scoring.version,
    }),
    refs: refKeysFor(config, 'forms'),
  };
}
