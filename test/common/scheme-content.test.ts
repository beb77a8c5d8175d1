/**
 * The scheme's content (src/common/scheme/form-kinds.ts) is data that the client, the server and
 * stored rows all rely on: these tests keep it consistent (unique keys and ids, rules that only
 * name existing indicators and choices, plants with Latin names, illustrations present on disk and
 * safe to precache).
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { FORM_KINDS, formKindNameById, formKinds } from '../../src/common/scheme/form-kinds';
import { findIndicator, formKindById } from '../../src/common/scheme/kind-lookup';

const publicDir = path.resolve(process.cwd(), 'public');
const allKinds = Object.entries(formKinds);
const allIndicators = allKinds.flatMap(([, kind]) => kind.indicators);
/** Groups whose indicators are plants and so need a Latin name. */
const plantGroups = new Set(['kazalne', 'invazivne', 'hranila']);

describe('form kinds', () => {
  it('has at least the meadow walk and the management form, with unique ids', () => {
    expect(Object.keys(FORM_KINDS)).toEqual(expect.arrayContaining(['travnik', 'upravljanje']));
    const ids = allKinds.map(([, kind]) => kind.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [name, kind] of allKinds) {
      expect(formKindById(kind.id, formKinds)).toBe(kind);
      expect(formKindNameById(kind.id)).toBe(name);
      expect(kind.title.length).toBeGreaterThan(3);
      expect(kind.description.length).toBeGreaterThan(20);
    }
    expect(formKindById(999, formKinds)).toBeUndefined();
  });

  it('uses indicator keys that are unique across all form kinds and safe in file names', () => {
    const keys = allIndicators.map((d) => d.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('describes every indicator in Slovenian and puts it in a declared group', () => {
    for (const [, kind] of allKinds) {
      const groupKeys = (kind.groups ?? []).map((g) => g.key);
      expect(new Set(groupKeys).size).toBe(groupKeys.length);
      for (const d of kind.indicators) {
        expect(d.name.trim()).not.toBe('');
        expect(d.description.length).toBeGreaterThan(40);
        expect(groupKeys).toContain(d.group);
        if (d.valueKind === 'choice') {
          expect(d.choices?.length).toBeGreaterThan(1);
          const values = d.choices!.map((c) => c.value);
          expect(new Set(values).size).toBe(values.length);
        }
      }
    }
  });

  it('gives every plant indicator a Latin name', () => {
    const plants = allIndicators.filter((d) => plantGroups.has(d.group ?? ''));
    expect(plants.length).toBeGreaterThanOrEqual(16);
    for (const plant of plants) expect(plant.latin).toMatch(/^[A-Z][a-z]+/);
  });

  it('holds the indicators the scheme is known for', () => {
    const byLatin = (latin: string) => allIndicators.find((d) => d.latin?.startsWith(latin));
    expect(byLatin('Salvia pratensis')?.name).toBe('travniška kadulja');
    expect(byLatin('Lotus corniculatus')?.name).toBe('navadna nokota');
    expect(byLatin('Leucanthemum')?.name).toBe('navadna ivanjščica');
    expect(byLatin('Orchidaceae')?.name).toBe('kukavičevke');
    expect(byLatin('Solidago')?.group).toBe('invazivne');
    expect(byLatin('Erigeron annuus')?.group).toBe('invazivne');
    expect(byLatin('Rumex obtusifolius')?.group).toBe('hranila');
    const colours = FORM_KINDS.travnik.indicators.filter((d) => d.group === 'barve').map((d) => d.name);
    expect(colours).toEqual(['bela', 'modro-vijolična', 'rdeče-rožnata', 'rumeno-oranžna']);
    expect(findIndicator(FORM_KINDS.travnik, 'zarascanje')?.valueKind).toBe('percent');
    const management = FORM_KINDS.upravljanje.indicators.map((d) => d.key);
    expect(management).toEqual(expect.arrayContaining(['datum-prve-kosnje', 'gnojenje', 'pasa', 'odvoz-pokosene-mase']));
  });

  it('has scoring rules that name only existing indicators and choices, and score every choice', () => {
    for (const [, kind] of allKinds) {
      expect(kind.scoring.version).toMatch(/^[a-z]+-\d{4}\.\d+$/);
      for (const c of kind.scoring.contributions) {
        const d = findIndicator(kind, c.key);
        expect(d).toBeDefined();
        if (c.perChoice) {
          expect(d!.valueKind).toBe('choice');
          expect(Object.keys(c.perChoice).sort()).toEqual(d!.choices!.map((choice) => choice.value).sort());
        }
        if (c.dateFrom) {
          expect(d!.valueKind).toBe('date');
          expect(c.dateFrom).toMatch(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
        }
      }
      // Every indicator except free text moves the score, so nothing on the form is decoration.
      for (const d of kind.indicators.filter((x) => x.valueKind !== 'text')) {
        expect(kind.scoring.contributions.map((c) => c.key)).toContain(d.key);
      }
    }
  });
});

describe('indicator illustrations', () => {
  it('exist on disk for every indicator that names one, at /indicators/<key>.svg', () => {
    const withImage = allIndicators.filter((d) => d.image);
    // Every field observation has a picture; only free-text notes do without.
    expect(withImage.length).toBe(allIndicators.filter((d) => d.valueKind !== 'text').length);
    for (const d of withImage) {
      expect(d.image).toBe(`/indicators/${d.key}.svg`);
      expect(existsSync(path.join(publicDir, d.image!))).toBe(true);
    }
  });

  it('are small, self-contained SVG files with no scripts or external references', () => {
    const files = readdirSync(path.join(publicDir, 'indicators')).filter((f) => f.endsWith('.svg'));
    const referenced = new Set(allIndicators.map((d) => d.image).filter(Boolean));
    for (const file of files) {
      // Stray files would be precached for nothing.
      expect(referenced.has(`/indicators/${file}`)).toBe(true);
      const full = path.join(publicDir, 'indicators', file);
      expect(statSync(full).size).toBeLessThan(8 * 1024);
      const text = readFileSync(full, 'utf8');
      expect(text).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(text).toMatch(/viewBox="0 0 \d+ \d+"/);
      expect(text).toMatch(/<title>[^<]+<\/title>/);
      expect(text.trim().endsWith('</svg>')).toBe(true);
      expect(text).not.toMatch(/<script|href="(https?:)?\/\/|@import|url\(http/i);
    }
  });
});
