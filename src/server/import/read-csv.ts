/**
 * Farmers from CSV: UTF-8 with or without BOM, `;` (what a Slovenian spreadsheet writes) or `,`
 * separated — whichever the header line has more of outside quotes — first line the header.
 * Parsed by csv-parse; values stay text, trimmed.
 */
import { parse } from 'csv-parse/sync';
import { fillText, slSeasonServer } from '../../common/i18n/sl';
import { UnreadableFile, type SourceTable } from './source';

function delimiterOf(text: string): ';' | ',' {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const outsideQuotes = header.replace(/"[^"]*"/g, '');
  return (outsideQuotes.match(/;/g)?.length ?? 0) > (outsideQuotes.match(/,/g)?.length ?? 0) ? ';' : ',';
}

export function readCsv(bytes: Uint8Array): SourceTable {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UnreadableFile(fillText(slSeasonServer.import.unreadable, { reason: 'ni v kodiranju UTF-8' }));
  }
  let records: string[][];
  try {
    records = parse(text, { bom: true, delimiter: delimiterOf(text), skip_empty_lines: true, trim: true, relax_column_count: true });
  } catch (error) {
    throw new UnreadableFile(fillText(slSeasonServer.import.unreadable, { reason: (error as Error).message }));
  }
  const [header, ...data] = records;
  if (!header || data.length === 0) throw new UnreadableFile(slSeasonServer.import.emptyFile);
  const columns = header.map((name, i) => name || `stolpec ${i + 1}`);
  return {
    columns,
    rows: data.map((values) => ({ attributes: Object.fromEntries(columns.map((name, i) => [name, values[i] ?? ''])) })),
  };
}
