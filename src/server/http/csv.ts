/**
 * CSV cells for every export this service writes (history?f=csv, ExecuteReport items): RFC 4180
 * quoting, and no cell a spreadsheet would run. A text cell beginning with = + - @, a tab or a
 * carriage return is read by Excel, LibreOffice and Google Sheets as a formula (CSV injection,
 * OWASP), so it is prefixed with ' and shown as the text it is. Numbers and booleans are data the
 * service wrote itself and stay as they are (a negative size is not a formula).
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(v: CsvValue): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (typeof v === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
