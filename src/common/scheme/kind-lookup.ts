/**
 * Finding a form kind or an indicator among a set of form kinds: the client's are config.json's
 * (`config.forms`), the server's the scheme's own (form-kinds.ts → `formKinds`). The kinds are
 * always passed, so the client's code does not bring the scheme's content (every plant, its
 * description and choices) into the scripts a phone loads first.
 */
import type { FormKind, IndicatorDefinition } from '../schemas/config';

/** The form kind with this id (forms.form_id), if any, among `kinds`. */
export function formKindById<K extends { id: number }>(id: unknown, kinds: Readonly<Record<string, K>> | readonly K[]): K | undefined {
  return Object.values(kinds).find((kind) => kind.id === id);
}

/** The definition of an indicator of a form kind, if the key exists. */
export function findIndicator(kind: FormKind, key: string): IndicatorDefinition | undefined {
  return kind.indicators.find((definition) => definition.key === key);
}

/** An indicator's definition by its key alone, in any of `kinds` (keys are unique across the form kinds). */
export function indicatorByKey(key: unknown, kinds: Readonly<Record<string, FormKind>>): IndicatorDefinition | undefined {
  if (typeof key !== 'string') return undefined;
  for (const kind of Object.values(kinds)) {
    const found = findIndicator(kind, key);
    if (found) return found;
  }
  return undefined;
}
