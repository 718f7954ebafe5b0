/**
 * RFC 4180 CSV: fields separated by commas, quoted with double quotes (a doubled quote inside quotes is
 * one quote), records ended by CRLF or LF. A UTF-8 byte-order mark and blank lines are ignored.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    row.push(field);
    if (row.length > 1 || row[0].trim() !== '') rows.push(row);
    row = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
    } else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
    } else {
      field += c;
    }
  }
  if (field !== '' || row.length > 0) endRow();
  return rows;
}

/**
 * The same format written: a field with a comma, quote or line break is quoted (its quotes doubled), records
 * end with CRLF. Fields are written as given: E.164 numbers start with +, so neutralising formulas is for the
 * free-text cells only (toSpreadsheetText).
 */
export function formatCsv(rows: readonly (readonly string[])[]): string {
  return rows
    .map((row) =>
      row.map((field) => (/[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field)).join(','),
    )
    .map((line) => `${line}\r\n`)
    .join('');
}

/** How a cell that a spreadsheet runs as a formula starts (OWASP's list), after any apostrophes of ours. */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A free-text cell (a note) made safe to open in a spreadsheet: one that would start a formula gets a leading
 * apostrophe, which spreadsheets show as text instead of running it. fromSpreadsheetText reverses it exactly
 * (a text that already starts with apostrophes before such a character gets one more), so an export imports
 * back unchanged.
 */
export function toSpreadsheetText(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The text of a cell written by toSpreadsheetText. */
export function fromSpreadsheetText(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
