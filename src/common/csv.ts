/**
 * CSV files as Slovenian spreadsheet programs open them: `;` between cells (the comma is the
 * decimal separator there), CRLF line ends and a UTF-8 BOM, without which they misread č, š, ž.
 * Every CSV the app or the server writes goes through here.
 */

/**
 * Text a spreadsheet program would take for a formula (OWASP, CSV injection): `=`, `+`, `-`, `@`,
 * and a tab or carriage return, which some programs skip before looking for one. Quoting alone does
 * not help: programs evaluate a quoted `"=…"` all the same.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number (decimal point or comma, exponent): a leading sign makes it negative, not a formula. */
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:e[+-]?\d+)?$/i;

/**
 * One cell: quoted (and inner quotes doubled) only when it holds a separator, quote or line end.
 * Text that could be a formula gets an apostrophe first and quotes, so the program shows it as text
 * (the note itself after the apostrophe); numbers and numeric text, negative ones included, are
 * left alone so they still add up, and so are dates (they start with a digit).
 */
function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  if (typeof value !== 'number' && FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[";\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, with its line end. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(';')}\r\n`;
}

/** The start of a file: the BOM and the header line (a streamed file sends its lines after it). */
export function csvHead(header: readonly string[]): string {
  return `\ufeff${csvLine(header)}`;
}

/** A whole file: BOM, header line and the rows. */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  return csvHead(header) + rows.map(csvLine).join('');
}
