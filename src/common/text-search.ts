/**
 * The text search, GET …/search/{profileId}/{limit}/{page}/{query}: which records a query finds.
 * One definition for the server, whose text index (SQLite FTS5, PostgreSQL tsvector) is built and
 * queried with these words, and for the device, which answers the same call from its stored rows
 * when the server cannot be reached (client lib/db/local-data.ts, `searchDeviceRows`).
 *
 * The rule: a record's text is the string values of its text columns; its words are the runs of
 * letters and digits in it; a query's words are found the same way (at most MAX_QUERY_WORDS), and
 * a record matches when every query word begins one of its words, ignoring case and accents
 * ("kovac" finds "Kovač", "stef hor" finds "Štefan Horvat").
 */

/** Bounds of the call's path parameters (the route's schema): a page of 1 to 1000 records, a query of 1 to 200 characters. */
export const TEXT_SEARCH_MAX_LIMIT = 1000;
export const TEXT_SEARCH_MAX_QUERY_LENGTH = 200;
/** Words of a query past this many are ignored. */
const MAX_QUERY_WORDS = 16;

/**
 * Words of a text as SQLite's unicode61 tokenizer sees them (runs of letters and digits). Both
 * the indexed text and the query go through it, so PostgreSQL's parser never sees e-mails, URLs
 * or hyphenated words as single tokens (it would, and "example" would not find "kmet1@example.si").
 */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The words of a query that count: every one must begin a word of the record's text. None: nothing is found. */
export function queryWords(query: string): string[] {
  return searchWords(query).slice(0, MAX_QUERY_WORDS);
}

/** The text a record is found by: the string values among `values` (its text columns'), one per line. */
export function searchableText(values: Iterable<unknown>): string {
  const texts: string[] = [];
  for (const value of values) if (typeof value === 'string' && value.length > 0) texts.push(value);
  return texts.join('\n');
}

/** A word as the index compares it: lower case, accents removed (FTS5's remove_diacritics, PostgreSQL's unaccent). */
function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The test of the rule for one query: true for a text in which every query word begins a word.
 * Null when the query has no words (the server then answers an empty page).
 */
export function textMatcher(query: string): ((text: string) => boolean) | null {
  const wanted = queryWords(query).map(foldWord);
  if (wanted.length === 0) return null;
  return (text) => {
    const words = searchWords(text).map(foldWord);
    return wanted.every((prefix) => words.some((word) => word.startsWith(prefix)));
  };
}

/** What is wrong with a call's limit, page and query (the route's bounds), or null when nothing is. */
export function textSearchProblem({ limit, page, query }: { limit: number; page: number; query: string }): string | null {
  if (!Number.isInteger(limit) || limit < 1 || limit > TEXT_SEARCH_MAX_LIMIT) return `limit: must be an integer from 1 to ${TEXT_SEARCH_MAX_LIMIT}`;
  if (!Number.isInteger(page) || page < 1) return 'page: must be an integer >= 1';
  if (query.length < 1 || query.length > TEXT_SEARCH_MAX_QUERY_LENGTH) return `query: must be 1 to ${TEXT_SEARCH_MAX_QUERY_LENGTH} characters`;
  return null;
}
