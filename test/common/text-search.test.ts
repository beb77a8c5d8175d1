/** The text search's rule (src/common/text-search.ts), shared by the server's index and the device's answer. */
import { describe, expect, it } from '@jest/globals';
import { queryWords, searchableText, textMatcher, textSearchProblem } from '../../src/common/text-search';

describe('the text search rule', () => {
  it('splits into runs of letters and digits and keeps at most 16 query words', () => {
    expect(queryWords('  Štefan  kmet1@example.si 041-111 ')).toEqual(['Štefan', 'kmet1', 'example', 'si', '041', '111']);
    expect(queryWords(Array.from({ length: 20 }, (_, i) => `w${i}`).join(' '))).toHaveLength(16);
    expect(queryWords('@ - !')).toEqual([]);
  });

  it('finds a text when every query word begins one of its words, ignoring case and accents', () => {
    const matches = textMatcher('stef HOR')!;
    expect(matches('Štefan Horvat')).toBe(true);
    expect(matches('Štefan\nkmet2@example.si')).toBe(false);
    expect(textMatcher('kovac')!('Ana Kovač')).toBe(true);
    // A word is matched from its start only.
    expect(textMatcher('marija')!('Anamarija Zver')).toBe(false);
    expect(textMatcher('example')!('kmet1@example.si')).toBe(true);
    expect(textMatcher(' - ')).toBeNull();
  });

  it("takes a record's string values, one per line", () => {
    expect(searchableText(['Ana', 12, null, '', 'kmet1@example.si', { a: 'b' }])).toBe('Ana\nkmet1@example.si');
  });

  it("refuses what the route's schema refuses", () => {
    expect(textSearchProblem({ limit: 10, page: 1, query: 'ana' })).toBeNull();
    expect(textSearchProblem({ limit: 0, page: 1, query: 'ana' })).toMatch(/^limit/);
    expect(textSearchProblem({ limit: 1001, page: 1, query: 'ana' })).toMatch(/^limit/);
    expect(textSearchProblem({ limit: 10, page: 0, query: 'ana' })).toMatch(/^page/);
    expect(textSearchProblem({ limit: 10, page: 1, query: 'a'.repeat(201) })).toMatch(/^query/);
  });
});
