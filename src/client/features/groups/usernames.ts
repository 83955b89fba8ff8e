/**
 * Usernames for "Add users", from what people have at hand: names typed one by one, a pasted list
 * (one per line, or separated by commas, semicolons, spaces or tabs), or a CSV file whose first
 * column holds usernames (a header row is optional and recognised by its wording).
 */

/** A pasted list → names, in order, blanks and surrounding quotes dropped. */
export function parseNameList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim().replace(/^["']+|["']+$/g, ''))
    .filter(Boolean);
}

/** Header cells people put above a username column. */
const HEADER = /^(user ?names?|users?|logins?|login ?names?|members?|member ?names?|accounts?|user ?ids?|names?)$/i;

function splitCsvLine(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === delimiter) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells.map((s) => s.trim());
}

export interface CsvUsernames {
  names: string[];
  /** The first row was a header ("username", "User name", …) and was left out. */
  headerSkipped: boolean;
}

/** The first column of a CSV text (comma, semicolon or tab separated; quotes as in RFC 4180). */
export function parseCsvUsernames(text: string): CsvUsernames {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .filter((l) => l.trim() !== '');
  if (!lines.length) return { names: [], headerSkipped: false };
  const first = lines[0];
  const delimiter = [',', ';', '\t'].find((d) => first.includes(d)) ?? ',';
  const firstCells = lines.map((l) => splitCsvLine(l, delimiter)[0] ?? '');
  const headerSkipped = HEADER.test(firstCells[0]);
  return { names: (headerSkipped ? firstCells.slice(1) : firstCells).filter(Boolean), headerSkipped };
}

export interface MergedNames {
  names: string[];
  /** Names given more than once (usernames are case-insensitive): only the first is kept. */
  duplicates: number;
}

/** Every list together, each username once (case-insensitively), in the order first given. */
export function mergeNames(...lists: readonly (readonly string[])[]): MergedNames {
  const seen = new Set<string>();
  const names: string[] = [];
  let duplicates = 0;
  for (const list of lists) {
    for (const name of list) {
      const key = name.toLowerCase();
      if (seen.has(key)) duplicates++;
      else {
        seen.add(key);
        names.push(name);
      }
    }
  }
  return { names, duplicates };
}
