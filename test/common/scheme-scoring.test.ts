import { describe, expect, it } from '@jest/globals';
import { FORM_KINDS } from '../../src/common/scheme/form-kinds';
import { computeScore, normalizeValue, validateForm, valuesFromIndicators, type FormValues } from '../../src/common/scheme/scoring';
import { sl } from '../../src/common/i18n/sl';
import type { FormKind } from '../../src/common/schemas/config';

const travnik = FORM_KINDS.travnik;
const upravljanje = FORM_KINDS.upravljanje;

const PLANTS = [
  'salvia-pratensis',
  'lotus-corniculatus',
  'leucanthemum-vulgare',
  'centaurea-jacea',
  'campanula-patula',
  'rhinanthus',
  'sanguisorba-officinalis',
  'silene-vulgaris',
  'knautia-arvensis',
  'dianthus-carthusianorum',
  'galium-verum',
  'trifolium-montanum',
  'briza-media',
  'lychnis-flos-cuculi',
];
const COLOURS = ['barva-bela', 'barva-modro-vijolicna', 'barva-rdece-rozna', 'barva-rumeno-oranzna'];

/** A meadow form with the required answers neutral (no nutrient indicators, no shrubs). */
function meadow(plants: number, colours: number, extra: FormValues = {}): FormValues {
  const values: FormValues = { 'rumex-obtusifolius': 'ni', taraxacum: 'ni', zarascanje: 0 };
  PLANTS.slice(0, plants).forEach((key) => (values[key] = true));
  COLOURS.slice(0, colours).forEach((key) => (values[key] = true));
  return { ...values, ...extra };
}

function pointsOf(kind: FormKind, values: FormValues, key: string): number | undefined {
  return computeScore(kind, values).explanation.find((item) => item.key === key)?.points;
}

describe('computeScore: each indicator kind moves the score the right way', () => {
  it('starts from the base with nothing observed', () => {
    const result = computeScore(travnik, {});
    expect(result).toEqual({ score: 0, class: 'bad', ruleVersion: 'travnik-2025.1', base: 0, total: 0, explanation: [] });
    expect(computeScore(upravljanje, {}).score).toBe(55);
  });

  it('presence: a positive plant raises by 7, a colour group by 4; absent (false) changes nothing', () => {
    expect(computeScore(travnik, { 'salvia-pratensis': true }).score).toBe(7);
    expect(computeScore(travnik, { 'barva-bela': true }).score).toBe(4);
    const absent = computeScore(travnik, { 'salvia-pratensis': false });
    expect(absent.score).toBe(0);
    expect(absent.explanation).toEqual([]);
    expect(computeScore(travnik, { 'salvia-pratensis': true }).explanation).toEqual([
      { key: 'salvia-pratensis', name: 'travniška kadulja', points: 7, reason: 'zabeleženo na poti' },
    ]);
  });

  it('presence: invasive plants lower the score', () => {
    const base = meadow(10, 4);
    const before = computeScore(travnik, base).score;
    expect(computeScore(travnik, { ...base, solidago: true }).score).toBe(before - 20);
    expect(computeScore(travnik, { ...base, 'erigeron-annuus': true }).score).toBe(before - 15);
  });

  it('count: orchids add 5 points each up to 15', () => {
    expect(pointsOf(travnik, { orchidaceae: 1 }, 'orchidaceae')).toBe(5);
    expect(pointsOf(travnik, { orchidaceae: 3 }, 'orchidaceae')).toBe(15);
    const capped = computeScore(travnik, { orchidaceae: 40 }).explanation[0];
    expect(capped).toEqual({ key: 'orchidaceae', name: 'kukavičevke', points: 15, reason: '40 × 5 točk, omejeno na 15 točk' });
    expect(computeScore(travnik, { orchidaceae: 0 }).explanation).toEqual([]);
  });

  it('percent: shrub overgrowth takes 1 point per percent, at most 40', () => {
    const base = meadow(12, 4);
    const before = computeScore(travnik, base).score;
    expect(computeScore(travnik, { ...base, zarascanje: 10 }).score).toBe(before - 10);
    const heavy = computeScore(travnik, { ...base, zarascanje: 85 });
    expect(heavy.score).toBe(before - 40);
    expect(heavy.explanation.find((i) => i.key === 'zarascanje')).toEqual({
      key: 'zarascanje',
      name: 'zaraščanje z grmovjem',
      points: -40,
      reason: 'delež 85 % × -1 točka, omejeno na -40 točk',
    });
  });

  it('choice: nutrient indicators lower the score by abundance; single dandelions are normal', () => {
    const base = meadow(12, 4);
    const before = computeScore(travnik, base).score;
    expect(computeScore(travnik, { ...base, 'rumex-obtusifolius': 'posamicno' }).score).toBe(before - 5);
    expect(computeScore(travnik, { ...base, 'rumex-obtusifolius': 'prevladuje' }).score).toBe(before - 20);
    expect(computeScore(travnik, { ...base, taraxacum: 'posamicno' }).score).toBe(before);
    expect(computeScore(travnik, { ...base, taraxacum: 'pogosto' }).score).toBe(before - 5);
    expect(pointsOf(travnik, { ...base, taraxacum: 'posamicno' }, 'taraxacum')).toBeUndefined();
    expect(computeScore(travnik, { taraxacum: 'prevladuje' }).explanation[0]?.reason).toBe('izbrano: Prevladuje (več kot četrtina površine)');
  });

  it('choice: management answers raise or lower from the base of 55', () => {
    expect(computeScore(upravljanje, { gnojenje: 'brez' }).score).toBe(70);
    expect(computeScore(upravljanje, { gnojenje: 'hlevski-gnoj' }).score).toBe(60);
    expect(computeScore(upravljanje, { gnojenje: 'gnojevka' }).score).toBe(35);
    expect(computeScore(upravljanje, { gnojenje: 'mineralna' }).score).toBe(30);
    expect(computeScore(upravljanje, { pasa: 'brez' }).score).toBe(55);
    expect(computeScore(upravljanje, { pasa: 'jesenska' }).score).toBe(60);
    expect(computeScore(upravljanje, { pasa: 'stalna' }).score).toBe(40);
    expect(computeScore(upravljanje, { 'odvoz-pokosene-mase': 'da' }).score).toBe(65);
    expect(computeScore(upravljanje, { 'odvoz-pokosene-mase': 'ne' }).score).toBe(35);
  });

  it('date: first mowing on or after 15 June adds 15, earlier takes 15, in any year', () => {
    const on = computeScore(upravljanje, { 'datum-prve-kosnje': '2025-06-15' });
    expect(on.score).toBe(70);
    expect(on.explanation[0]?.reason).toBe('15. 6. 2025 (od 15. 6. dalje)');
    const before = computeScore(upravljanje, { 'datum-prve-kosnje': '2025-06-14' });
    expect(before.score).toBe(40);
    expect(before.explanation[0]?.reason).toBe('14. 6. 2025 (pred 15. 6.)');
    expect(computeScore(upravljanje, { 'datum-prve-kosnje': '2026-09-01' }).score).toBe(70);
    expect(computeScore(upravljanje, { 'datum-prve-kosnje': '2024-01-31' }).score).toBe(40);
  });

  it('text notes never move the score', () => {
    expect(computeScore(upravljanje, { 'opombe-upravljanje': 'Divji prašiči so rili ob robu.' }).score).toBe(55);
  });

  it('ignores invalid and unknown values instead of throwing', () => {
    const result = computeScore(travnik, {
      'salvia-pratensis': 'maybe',
      orchidaceae: -3,
      zarascanje: 140,
      taraxacum: 'veliko',
      'lotus-corniculatus': true,
      neznano: true,
    });
    expect(result.score).toBe(7);
    expect(result.explanation.map((i) => i.key)).toEqual(['lotus-corniculatus']);
    expect(computeScore(upravljanje, { 'datum-prve-kosnje': '2025-02-30' }).score).toBe(55);
  });

  it('reads values as they come over the wire (strings for booleans and numbers)', () => {
    expect(computeScore(travnik, { 'salvia-pratensis': 'true', orchidaceae: '2', zarascanje: '5' }).score).toBe(7 + 10 - 5);
    expect(normalizeValue(findDef('salvia-pratensis'), 0)).toEqual({ ok: true, value: false });
    expect(normalizeValue(findDef('salvia-pratensis'), '')).toEqual({ ok: true, value: undefined });
  });
});

function findDef(key: string) {
  const d = [...travnik.indicators, ...upravljanje.indicators].find((x) => x.key === key);
  if (!d) throw new Error(key);
  return d;
}

describe('computeScore: clamping, rounding and class thresholds', () => {
  it('clamps at 100 and keeps the unclamped total', () => {
    const all = meadow(14, 4, { orchidaceae: 5 });
    const result = computeScore(travnik, all);
    expect(result.total).toBe(14 * 7 + 15 + 16);
    expect(result.score).toBe(100);
    expect(result.class).toBe('good');
  });

  it('clamps at 0', () => {
    const worst = computeScore(upravljanje, {
      'datum-prve-kosnje': '2025-05-10',
      gnojenje: 'mineralna',
      pasa: 'stalna',
      'odvoz-pokosene-mase': 'ne',
    });
    expect(worst.total).toBe(55 - 15 - 25 - 15 - 20);
    expect(worst.score).toBe(0);
    expect(worst.class).toBe('bad');
    expect(computeScore(travnik, { solidago: true, zarascanje: 100 }).score).toBe(0);
  });

  it('best management reaches exactly 100', () => {
    const best = computeScore(upravljanje, {
      'datum-prve-kosnje': '2025-07-01',
      gnojenje: 'brez',
      pasa: 'jesenska',
      'odvoz-pokosene-mase': 'da',
    });
    expect(best.score).toBe(100);
  });

  it.each([
    ['67 is good', meadow(9, 1), 67, 'good'],
    ['66 is medium', meadow(8, 0, { orchidaceae: 2 }), 66, 'medium'],
    ['34 is medium', meadow(3, 2, { orchidaceae: 1 }), 34, 'medium'],
    ['33 is bad', meadow(3, 3), 33, 'bad'],
  ] as const)('boundary: %s', (_label, values, score, cls) => {
    const result = computeScore(travnik, values);
    expect(result.score).toBe(score);
    expect(result.class).toBe(cls);
  });

  it('rounds half up before classifying (66.5 → 67 good, 33.4 → 33 bad)', () => {
    const up = computeScore(travnik, meadow(9, 1, { zarascanje: 0.5 }));
    expect(up.total).toBe(66.5);
    expect(up.score).toBe(67);
    expect(up.class).toBe('good');
    const down = computeScore(travnik, meadow(3, 2, { orchidaceae: 1, zarascanje: 0.6 }));
    expect(down.total).toBe(33.4);
    expect(down.score).toBe(33);
    expect(down.class).toBe('bad');
  });
});

describe('computeScore: explanation', () => {
  it('lists raisers first (largest first), then lowerers (largest first), ties in rule order', () => {
    const values = meadow(2, 1, {
      orchidaceae: 2,
      solidago: true,
      'rumex-obtusifolius': 'posamicno',
      taraxacum: 'prevladuje',
      zarascanje: 15,
    });
    const result = computeScore(travnik, values);
    expect(result.explanation.map((i) => [i.key, i.points])).toEqual([
      ['orchidaceae', 10],
      ['salvia-pratensis', 7],
      ['lotus-corniculatus', 7],
      ['barva-bela', 4],
      ['solidago', -20],
      ['taraxacum', -15],
      ['zarascanje', -15],
      ['rumex-obtusifolius', -5],
    ]);
    expect(result.total).toBe(10 + 7 + 7 + 4 - 20 - 15 - 15 - 5);
    expect(result.score).toBe(0);
  });

  it('is deterministic and does not change its input', () => {
    const values = meadow(5, 2, { orchidaceae: 1 });
    const copy = structuredClone(values);
    expect(computeScore(travnik, values)).toEqual(computeScore(travnik, copy));
    expect(values).toEqual(copy);
  });

  it('names points with Slovenian plural forms', () => {
    expect([1, 2, 3, 4, 5, 101, -1, -40].map(sl.scheme.points)).toEqual([
      '1 točka',
      '2 točki',
      '3 točke',
      '4 točke',
      '5 točk',
      '101 točka',
      '-1 točka',
      '-40 točk',
    ]);
    expect(sl.scheme.points(-0.5)).toBe('-0,5 točke');
    expect(computeScore(travnik, { zarascanje: 2.5 }).explanation[0]?.reason).toBe('delež 2,5 % × -1 točka');
  });
});

describe('validateForm', () => {
  it('asks for every required value in form order, in Slovenian', () => {
    const result = validateForm(travnik, {});
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual([
      { key: 'rumex-obtusifolius', message: 'Vnesite podatek: topolistna kislica.' },
      { key: 'taraxacum', message: 'Vnesite podatek: navadni regrat.' },
      { key: 'zarascanje', message: 'Vnesite podatek: zaraščanje z grmovjem.' },
    ]);
    expect(validateForm(upravljanje, { 'opombe-upravljanje': 'x' }).errors.map((e) => e.key)).toEqual([
      'datum-prve-kosnje',
      'odvoz-pokosene-mase',
      'gnojenje',
      'pasa',
    ]);
  });

  it('treats blank strings and null as missing, and 0 or false as given', () => {
    expect(validateForm(travnik, { 'rumex-obtusifolius': '', taraxacum: null, zarascanje: 0 }).errors.map((e) => e.key)).toEqual([
      'rumex-obtusifolius',
      'taraxacum',
    ]);
    expect(validateForm(travnik, meadow(0, 0, { 'salvia-pratensis': false }))).toEqual({ valid: true, errors: [] });
  });

  it('accepts a complete form', () => {
    expect(validateForm(travnik, meadow(5, 3, { orchidaceae: 4, zarascanje: 12.5 }))).toEqual({ valid: true, errors: [] });
    expect(validateForm(upravljanje, { 'datum-prve-kosnje': '2025-06-20', gnojenje: 'brez', pasa: 'brez', 'odvoz-pokosene-mase': 'da' })).toEqual({
      valid: true,
      errors: [],
    });
  });

  it('rejects values of the wrong kind with a message naming the indicator', () => {
    const result = validateForm(
      travnik,
      meadow(0, 0, {
        'salvia-pratensis': 'mogoče',
        orchidaceae: 2.5,
        zarascanje: 120,
        taraxacum: 'veliko',
        neznano: 1,
      }),
    );
    expect(result.errors).toEqual([
      { key: 'salvia-pratensis', message: 'Travniška kadulja: izberite da ali ne.' },
      { key: 'orchidaceae', message: 'Kukavičevke: vpišite celo število od 0 do 10000.' },
      { key: 'taraxacum', message: 'Navadni regrat: izberite eno od ponujenih možnosti.' },
      { key: 'zarascanje', message: 'Zaraščanje z grmovjem: vpišite delež od 0 do 100 %.' },
      { key: 'neznano', message: 'Obrazec nima kazalnika »neznano«.' },
    ]);
    expect(validateForm(travnik, meadow(0, 0, { zarascanje: -1 })).errors.map((e) => e.key)).toEqual(['zarascanje']);
  });

  it('rejects impossible dates and over-long notes', () => {
    const answers = { gnojenje: 'brez', pasa: 'brez', 'odvoz-pokosene-mase': 'da' };
    for (const bad of ['2025-02-30', '15. 6. 2025', '2025-6-15', 20250615]) {
      expect(validateForm(upravljanje, { ...answers, 'datum-prve-kosnje': bad }).errors).toEqual([
        { key: 'datum-prve-kosnje', message: 'Datum prve košnje: vpišite veljaven datum.' },
      ]);
    }
    expect(validateForm(upravljanje, { ...answers, 'datum-prve-kosnje': '2024-02-29' }).valid).toBe(true);
    expect(validateForm(upravljanje, { ...answers, 'datum-prve-kosnje': '2025-06-20', 'opombe-upravljanje': 'x'.repeat(2001) }).errors).toEqual([
      { key: 'opombe-upravljanje', message: 'Posebnosti: besedilo je predolgo (največ 2000 znakov).' },
    ]);
  });
});

describe('valuesFromIndicators', () => {
  it('merges rows of one key: counts add, presence ORs, percent takes the largest, choices take the last', () => {
    const values = valuesFromIndicators(travnik, [
      { key: 'orchidaceae', value: 2 },
      { key: 'orchidaceae', value: '3' },
      { key: 'salvia-pratensis', value: false },
      { key: 'salvia-pratensis', value: true },
      { key: 'zarascanje', value: 20 },
      { key: 'zarascanje', value: 5 },
      { key: 'taraxacum', value: 'pogosto' },
      { key: 'taraxacum', value: 'posamicno' },
      { key: 'rumex-obtusifolius', value: 'prevladuje', deleted: true },
      { key: 'solidago', value: true, archived: true },
      { key: 'barva-bela', value: null },
    ]);
    expect(values).toEqual({ orchidaceae: 5, 'salvia-pratensis': true, zarascanje: 20, taraxacum: 'posamicno' });
  });

  it('keeps unknown keys and invalid values so validation can report them', () => {
    const values = valuesFromIndicators(travnik, [
      { key: 'neznano', value: 1 },
      { key: 'zarascanje', value: 'veliko' },
    ]);
    expect(values).toEqual({ neznano: 1, zarascanje: 'veliko' });
    expect(validateForm(travnik, values).errors.map((e) => e.key)).toEqual(['rumex-obtusifolius', 'taraxacum', 'zarascanje', 'neznano']);
    // A later valid row replaces an invalid one.
    expect(
      valuesFromIndicators(travnik, [
        { key: 'zarascanje', value: 'veliko' },
        { key: 'zarascanje', value: 3 },
      ]),
    ).toEqual({ zarascanje: 3 });
  });
});
