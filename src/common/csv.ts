/**
 * CSV files as Slovenian spreadsheet programs open them: `;` between cells (the comma is the
 * decimal separator there), CRLF line ends and a UTF-8 BOM, without which they misread č, š, ž.
 * Every CSV the app or the server writes goes through here.
 */

/** One cell: quoted (and inner quotes doubled) only when it holds a separator, quote or line end. */
function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
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
