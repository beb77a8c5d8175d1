/**
 * Realistic example answers for the scheme's form kinds, for demo data and benchmarks (the demo
 * seed and the large seed on the server). Deterministic: the same seed gives the same answers on
 * every run, so demo projects and test fixtures are stable. Every example passes validateForm and
 * scores in the class it was asked for.
 */
import type { ScoreClass } from '../score';
import { formKinds } from './form-kinds';
import { computeScore, validateForm, type FormValues } from './scoring';

/** Park–Miller generator: tiny, portable and the same everywhere (Math.random is not seedable). */
function generator(seed: number): () => number {
  let state = Math.abs(Math.trunc(seed)) % 2147483646 || 1;
  return () => {
    state = (state * 16807) % 2147483647;
    return (state - 1) / 2147483646;
  };
}

function between(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function pickSome<T>(random: () => number, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
  return chosen;
}

function meadowExample(random: () => number, quality: ScoreClass): FormValues {
  const kind = formKinds.travnik!;
  const plants = kind.indicators.filter((d) => d.group === 'kazalne' && d.valueKind === 'presence').map((d) => d.key);
  const colours = kind.indicators.filter((d) => d.group === 'barve').map((d) => d.key);
  const values: FormValues = {};
  const set = (keys: string[]) => keys.forEach((key) => (values[key] = true));
  if (quality === 'good') {
    set(pickSome(random, plants, between(random, 9, 12)));
    set(pickSome(random, colours, between(random, 3, 4)));
    values.orchidaceae = between(random, 0, 6);
    values['rumex-obtusifolius'] = pick(random, ['ni', 'ni', 'posamicno']);
    values.taraxacum = pick(random, ['ni', 'posamicno']);
    values.zarascanje = between(random, 0, 5);
  } else if (quality === 'medium') {
    set(pickSome(random, plants, between(random, 5, 8)));
    set(pickSome(random, colours, between(random, 2, 4)));
    values.orchidaceae = between(random, 0, 1);
    values['rumex-obtusifolius'] = pick(random, ['ni', 'posamicno', 'pogosto']);
    values.taraxacum = pick(random, ['posamicno', 'pogosto']);
    values.zarascanje = between(random, 0, 10);
  } else {
    set(pickSome(random, plants, between(random, 3, 6)));
    set(pickSome(random, colours, between(random, 1, 3)));
    if (random() < 0.25) values.solidago = true;
    if (random() < 0.25) values['erigeron-annuus'] = true;
    values['rumex-obtusifolius'] = pick(random, ['posamicno', 'pogosto', 'prevladuje']);
    values.taraxacum = pick(random, ['pogosto', 'prevladuje']);
    values.zarascanje = between(random, 0, 15);
  }
  return values;
}

function isoDate(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function managementExample(random: () => number, quality: ScoreClass, year: number): FormValues {
  if (quality === 'good') {
    return {
      'datum-prve-kosnje': isoDate(year, pick(random, [6, 7]), between(random, 15, 30)),
      'odvoz-pokosene-mase': 'da',
      gnojenje: pick(random, ['brez', 'hlevski-gnoj']),
      pasa: pick(random, ['brez', 'jesenska']),
    };
  }
  if (quality === 'medium') {
    return {
      'datum-prve-kosnje': isoDate(year, 6, between(random, 1, 14)),
      'odvoz-pokosene-mase': 'da',
      gnojenje: pick(random, ['brez', 'hlevski-gnoj']),
      pasa: pick(random, ['brez', 'jesenska', 'stalna']),
      ...(random() < 0.3 ? { 'opombe-upravljanje': 'Zaradi napovedanega dežja smo kosili teden dni prej.' } : {}),
    };
  }
  return {
    'datum-prve-kosnje': isoDate(year, 5, between(random, 10, 31)),
    'odvoz-pokosene-mase': pick(random, ['da', 'ne']),
    gnojenje: pick(random, ['gnojevka', 'mineralna']),
    pasa: pick(random, ['brez', 'stalna']),
  };
}

/** Answers that always fit: used only if a random draw misses the class (never so far). */
const FALLBACK: Record<string, Record<ScoreClass, (year: number) => FormValues>> = {
  travnik: {
    good: () => ({
      'salvia-pratensis': true,
      'lotus-corniculatus': true,
      'leucanthemum-vulgare': true,
      'centaurea-jacea': true,
      'knautia-arvensis': true,
      'galium-verum': true,
      'briza-media': true,
      'trifolium-montanum': true,
      rhinanthus: true,
      'barva-bela': true,
      'barva-rumeno-oranzna': true,
      'barva-modro-vijolicna': true,
      orchidaceae: 2,
      'rumex-obtusifolius': 'ni',
      taraxacum: 'posamicno',
      zarascanje: 0,
    }),
    medium: () => ({
      'lotus-corniculatus': true,
      'centaurea-jacea': true,
      'knautia-arvensis': true,
      'galium-verum': true,
      'silene-vulgaris': true,
      'barva-bela': true,
      'barva-rumeno-oranzna': true,
      'rumex-obtusifolius': 'posamicno',
      taraxacum: 'pogosto',
      zarascanje: 5,
    }),
    bad: () => ({ 'barva-rumeno-oranzna': true, 'rumex-obtusifolius': 'pogosto', taraxacum: 'prevladuje', zarascanje: 20 }),
  },
  upravljanje: {
    good: (year) => ({ 'datum-prve-kosnje': isoDate(year, 6, 25), 'odvoz-pokosene-mase': 'da', gnojenje: 'brez', pasa: 'brez' }),
    medium: (year) => ({ 'datum-prve-kosnje': isoDate(year, 6, 5), 'odvoz-pokosene-mase': 'da', gnojenje: 'hlevski-gnoj', pasa: 'brez' }),
    bad: (year) => ({ 'datum-prve-kosnje': isoDate(year, 5, 20), 'odvoz-pokosene-mase': 'ne', gnojenje: 'gnojevka', pasa: 'stalna' }),
  },
};

/**
 * Valid example answers of the named form kind ('travnik' or 'upravljanje') that score in the
 * given class; `year` places management dates in the season.
 */
export function exampleFormValues(kindName: string, quality: ScoreClass, seed: number, year = 2025): FormValues {
  const kind = formKinds[kindName];
  const fallback = FALLBACK[kindName];
  if (!kind || !fallback) throw new Error(`unknown form kind ${kindName}`);
  const random = generator(seed);
  for (let attempt = 0; attempt < 20; attempt++) {
    const values = kindName === 'travnik' ? meadowExample(random, quality) : managementExample(random, quality, year);
    if (validateForm(kind, values).valid && computeScore(kind, values).class === quality) return values;
  }
  return fallback[quality](year);
}
