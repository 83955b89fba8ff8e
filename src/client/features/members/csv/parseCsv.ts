/**
 * A CSV text as rows of cells (RFC 4180): fields separated by commas — or by semicolons or tabs,
 * as spreadsheets in some locales save them — quoted fields may hold the separator, line breaks
 * and doubled quotes. A leading byte-order mark and blank lines are left out; each row keeps the
 * line it started on, so problems can be reported where people will look for them.
 */
interface CsvRow {
  /** The line of the file the row starts on (1-based). */
  line: number;
  cells: string[];
}

export interface ParsedCsv {
  rows: CsvRow[];
  /** A quoted field was still open at the end of the file. */
  unterminatedQuote: boolean;
}

/** The separator of the first line: whichever of comma, semicolon or tab it has most of (outside quotes is close enough for a header). */
function detectSeparator(text: string): string {
  const first = text.slice(0, text.search(/\r\n|\n|\r|$/));
  const counts = [',', ';', '\t'].map((s) => [s, first.split(s).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : ',';
}

export function parseCsv(input: string): ParsedCsv {
  const text = input.replace(/^\uFEFF/, '');
  const sep = detectSeparator(text);
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    cells.push(cell);
    if (cells.some((c) => c.trim() !== '')) rows.push({ line: rowLine, cells: cells.map((c) => c.trim()) });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
        cell += c;
      }
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === sep) {
      cells.push(cell);
      cell = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else cell += c;
  }
  const unterminatedQuote = quoted;
  if (cell !== '' || cells.length) endRow();
  return { rows, unterminatedQuote };
}
