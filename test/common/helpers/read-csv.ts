/**
 * Reads a CSV file of the app (`;`, CRLF, BOM) back into cells the way a spreadsheet program
 * splits it: quotes undone, separators and line ends inside quotes kept in the cell.
 */
export function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\ufeff/, '');
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ';') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** What a spreadsheet program would take for a formula; a plain number with a sign is not one. */
export function looksLikeFormula(cell: string): boolean {
  return /^[=+\-@\t\r]/.test(cell) && !/^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:e[+-]?\d+)?$/i.test(cell);
}

/** The characters a cell must not start with (OWASP, CSV injection). */
export const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'] as const;
