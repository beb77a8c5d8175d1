/**
 * Form kinds of the demo project (config.json → forms, keyed by name). The content is the
 * scheme's own (src/common/scheme/form-kinds.ts: the indicator-plant walk 'travnik' and the
 * management questions 'upravljanje'), and so is the score (src/common/scheme/scoring.ts, the same
 * code the client runs). This module keeps the names the demo seed imports.
 */
import type { FormKind, ScoringRule } from '../../common/schemas/config';
import type { ScoreClass } from '../../common/score';
import { exampleFormValues } from '../../common/scheme/examples';
import { FORM_KINDS, formKinds } from '../../common/scheme/form-kinds';
import { computeScore, type FormValues } from '../../common/scheme/scoring';

export const DEMO_FORM_KINDS: Record<string, FormKind> = formKinds;

/** The 0–100 score of values under a rule of the scheme (computeScore of src/common/scheme). */
export function scoreForm(rule: ScoringRule, values: Record<string, unknown>): number {
  const kind = Object.values(formKinds).find((k) => k.scoring === rule || k.scoring.version === rule.version);
  return computeScore(kind ?? { ...FORM_KINDS.travnik, scoring: rule }, values).score;
}

/**
 * Demo answers for a form kind ('travnik' or 'upravljanje'): valid indicator values (keys and
 * choice values of the scheme) that score in the given class; deterministic per seed.
 */
export function demoFormValues(kindName: string, quality: ScoreClass, seed: number, year = 2025): FormValues {
  return exampleFormValues(kindName, quality, seed, year);
}
