import { describe, expect, it } from '@jest/globals';
import { formKinds } from '../../src/common/scheme/form-kinds';
import { exampleFormValues } from '../../src/common/scheme/examples';
import { computeScore, validateForm } from '../../src/common/scheme/scoring';

describe('exampleFormValues (demo and benchmark answers)', () => {
  it.each(['travnik', 'upravljanje'])('%s: valid and scored in the requested class for many seeds', (name) => {
    const kind = formKinds[name]!;
    for (const quality of ['good', 'medium', 'bad'] as const) {
      for (let seed = 1; seed <= 60; seed++) {
        const values = exampleFormValues(name, quality, seed, 2025);
        expect(validateForm(kind, values)).toEqual({ valid: true, errors: [] });
        expect(computeScore(kind, values).class).toBe(quality);
      }
    }
  });

  it('is deterministic per seed and varies between seeds', () => {
    expect(exampleFormValues('travnik', 'good', 7)).toEqual(exampleFormValues('travnik', 'good', 7));
    const distinct = new Set(Array.from({ length: 10 }, (_, i) => JSON.stringify(exampleFormValues('travnik', 'medium', i + 1))));
    expect(distinct.size).toBeGreaterThan(5);
  });

  it('puts management dates in the given season', () => {
    expect(String(exampleFormValues('upravljanje', 'good', 3, 2026)['datum-prve-kosnje'])).toMatch(/^2026-0[67]-/);
  });

  it('refuses an unknown form kind', () => {
    expect(() => exampleFormValues('gozd', 'good', 1)).toThrow('unknown form kind gozd');
  });
});
