import { describe, expect, it } from '@jest/globals';
import { encodeQuery, withQuery } from '../../src/common/query-string';
import { classifyScore } from '../../src/common/score';
import { formatFileSize, formatDate } from '../../src/common/format';
import { errorMessageForStatus } from '../../src/common/errors';
import { COMPARISONS, and, eq, isIn } from '../../src/common/filter';

describe('query-string encoder', () => {
  it('expands arrays into repeated keys and nested objects into bracketed keys', () => {
    expect(encodeQuery({ tableIds: [1, 2], extent: { minX: 13.1, maxY: 46.5 }, skip: undefined })).toBe(
      'tableIds=1&tableIds=2&extent%5BminX%5D=13.1&extent%5BmaxY%5D=46.5',
    );
    expect(withQuery('/api/x', {})).toBe('/api/x');
    expect(withQuery('/api/x', { thumb: true, q: 'č ž' })).toBe('/api/x?thumb=true&q=%C4%8D%20%C5%BE');
  });
});

describe('score classification', () => {
  it.each([
    [100, 'good'],
    [67, 'good'],
    [66, 'medium'],
    [34, 'medium'],
    [33, 'bad'],
    [0, 'bad'],
  ])('%d is %s', (score, expected) => {
    expect(classifyScore(score)).toBe(expected);
  });
});

describe('file size formatter', () => {
  it('steps by 1024 from Bytes to YB with 2 decimals by default and a decimal comma', () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
    expect(formatFileSize(1023)).toBe('1.023 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1,5 KB');
    expect(formatFileSize(1234567)).toBe('1,18 MB');
    expect(formatFileSize(1234567, 0)).toBe('1 MB');
    expect(formatFileSize(1024 ** 8 * 3)).toBe('3 YB');
    expect(formatFileSize(1024 ** 10)).toBe('1.048.576 YB');
    expect(formatFileSize(7.51 * 1024 ** 2)).toBe('7,51 MB');
    expect(formatFileSize(10.01 * 1024 ** 3)).toBe('10,01 GB');
  });
});

describe('dates', () => {
  it('formats in Slovenian', () => {
    expect(formatDate('2026-11-21T10:00:00Z')).toMatch(/^21\. ?11\. ?2026$/);
  });
});

describe('error catalogue', () => {
  it('maps statuses to the catalogue messages and anything else to Generic Error', () => {
    expect(errorMessageForStatus(400)).toBe('Bad Request');
    expect(errorMessageForStatus(503)).toBe('Service Unavailable');
    expect(errorMessageForStatus(418)).toBe('Generic Error');
  });
});

describe('filter model', () => {
  it('has the 21 comparisons of the filter model and builds And nodes', () => {
    expect(COMPARISONS).toHaveLength(21);
    expect(and(eq(1, 'a'))).toEqual({ kind: 'filter', columnId: 1, comparison: 'Equals', value: 'a' });
    expect(and(eq(1, 'a'), isIn(2, [1, 2]))).toMatchObject({ kind: 'expression', operator: 'And' });
  });
});
