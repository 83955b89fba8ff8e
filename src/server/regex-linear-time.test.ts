/**
 * Every regular expression of src/shared and src/server (test files aside) runs in time linear in
 * its input (issue 35, ASVS 5.0 V1.3.12): request data reaches most of them, and one quadratic
 * pattern on an 8 MB body holds the request thread for hours. The patterns are found in the
 * source with the TypeScript parser, so a new one is checked without being listed here; a
 * `RegExp` built at run time must be listed in DYNAMIC with the patterns it can take.
 *
 * Each pattern runs over inputs made to make it backtrack: repetitions of the characters and
 * literal runs it names (and of the usual pumping strings), after a prefix it would accept, with a
 * suffix that makes the match fail. The check compares 100 kB with 10 kB, not wall-clock times,
 * so that it holds on a loaded machine: linear is about 10×, quadratic about 100×. The patterns
 * run in a worker, so that an exponential one fails the test (by its timeout) instead of hanging it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const DIRS = ['src/shared', 'src/server'];

interface Found {
  /** `file:line`. */
  where: string;
  file: string;
  /** The expression as written. */
  text: string;
  /** For a literal: the pattern and flags. */
  source?: string;
  flags?: string;
}

/**
 * `RegExp`s built at run time, by file and the start of their text, with every pattern they can
 * take (or a representative one when the part filled in is itself a fixed, validated value).
 */
const DYNAMIC: { file: string; text: string; patterns: RegExp[]; why: string }[] = [
  {
    file: 'src/shared/contract/items.ts',
    text: 'new RegExp(`^[A-Za-z0-9]{${LIMITS.itemIdLength}}$`)',
    patterns: [/^[A-Za-z0-9]{32}$/],
    why: 'built from a constant',
  },
  {
    file: 'src/server/http/boundary.ts',
    text: "new RegExp(UNSTORABLE.source, 'g')",
    patterns: [/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g],
    why: 'the literal UNSTORABLE with the global flag',
  },
];

/**
 * Patterns left out of the check, each with why no request data can reach it. Keep this short:
 * a pattern that sees request data is fixed, never listed.
 */
const TRUSTED: { file: string; source: string; why: string }[] = [
  { file: 'src/server/store/migrate.ts', source: '^\\s*--.*$', why: 'reads the migration files shipped with the service' },
  {
    file: 'src/server/http/outboundAllow.ts',
    source: '(\\d+\\.\\d+\\.\\d+\\.\\d+)$',
    why: 'runs only on an address net.isIP accepted, cut at its zone (at most 45 characters)',
  },
];

function sourceFiles(): string[] {
  const out: string[] = [];
  for (const dir of DIRS) {
    for (const rel of readdirSync(join(ROOT, dir), { recursive: true }) as string[]) {
      if (/\.tsx?$/.test(rel) && !/\.test\.tsx?$/.test(rel)) out.push(join(dir, rel).split('\\').join('/'));
    }
  }
  return out.sort();
}

function findRegexes(): Found[] {
  const found: Found[] = [];
  for (const file of sourceFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const t = node.getText(sf);
        const end = t.lastIndexOf('/');
        found.push({ where: where(node), file, text: t, source: t.slice(1, end), flags: t.slice(end + 1) });
      } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
        found.push({ where: where(node), file, text: node.getText(sf) });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

// ————— the check, run in a worker —————

/** Plain JavaScript: builds the adversarial inputs of one pattern and times it over them. */
const WORKER = String.raw`
const { parentPort } = require('node:worker_threads');
const COMMON = ['a', 'A', '0', '9', ' ', '\t', '\n', '\r\n', '.', '-', '_', '/', '//', '\\', '&', '=', '?', '#', '%', ':', '@', '<', '>', '"', "'", '*', '+', ',', ';', '~', '[', ']', '(', ')', 'x', '\u00e9', '\ud800', 'aa', 'a.', '0.', 'a-', 'a ', ' a', 'a@', '0:', 'a/', '<a ', '&a', '%a', 'a=', 'a&', '$a'];
const CLASS_ESCAPES = { d: '0', D: 'a', w: 'a', W: ' ', s: ' ', S: 'a', n: '\n', r: '\r', t: '\t', f: '\f', v: '\v', b: '', B: '' };
const SUFFIX = '\n\u0000!';

/** Characters and literal runs a pattern names: what makes it take each path. */
function parts(source) {
  const chars = new Set();
  const runs = [];
  let run = '';
  const endRun = () => { if (run.length > 1) runs.push(run); run = ''; };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const n = source[++i];
      if (n in CLASS_ESCAPES) { if (CLASS_ESCAPES[n]) chars.add(CLASS_ESCAPES[n]); endRun(); }
      else if (n === 'u' || n === 'x') {
        const m = /^(?:\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{4})|([0-9a-fA-F]{2}))/.exec(source.slice(i + 1));
        if (m) { const ch = String.fromCodePoint(parseInt(m[1] || m[2] || m[3], 16)); chars.add(ch); run += ch; i += m[0].length; }
      } else if (/[0-9k]/.test(n)) endRun();
      else { chars.add(n); run += n; }
    } else if (c === '[') {
      endRun();
      let j = i + 1;
      if (source[j] === '^') j++;
      for (; j < source.length && source[j] !== ']'; j++) {
        let ch = source[j];
        if (ch === '\\') { const n = source[++j]; ch = n in CLASS_ESCAPES ? CLASS_ESCAPES[n] : n; }
        if (ch) chars.add(ch);
      }
      i = j;
    } else if (c === '{') {
      endRun();
      i = source.indexOf('}', i);
    } else if ('()|*+?^$.'.includes(c)) {
      if (c === '.') chars.add('a');
      if ('*+?'.includes(c)) run = run.slice(0, -1);
      endRun();
      if (c === '(' && source[i + 1] === '?') { i++; if ('<'.includes(source[i + 1]) && /[=!]/.test(source[i + 2])) i += 2; else if (source[i + 1] === '<') i = source.indexOf('>', i); else i++; }
    } else {
      chars.add(c);
      run += c;
    }
  }
  endRun();
  return { chars: [...chars], runs };
}

function inputs(source) {
  const { chars, runs } = parts(source);
  const few = chars.slice(0, 16);
  const pumps = new Set([...COMMON, ...chars, ...runs]);
  for (const r of runs) for (const c of [...few, '&', '=', ' ', '/', 'a', '0']) { pumps.add(r + c); pumps.add(c + r); }
  for (const a of few) for (const b of few) if (a !== b) pumps.add(a + b);
  const out = [...pumps].map((pump) => ({ prefix: '', pump }));
  // An anchored pattern is tried at the start only: lead it to its repeated part first.
  if (source.startsWith('^')) {
    for (const prefix of new Set([runs[0], runs.join('')])) {
      if (prefix) for (const pump of new Set([...chars, ...runs, ...COMMON.slice(0, 12)])) out.push({ prefix, pump });
    }
  }
  return out;
}

const make = ({ prefix, pump }, size) => prefix + pump.repeat(Math.ceil(Math.max(0, size - prefix.length) / pump.length)) + SUFFIX;

/** Both ways a pattern is used: one match (exec, test) and every match (replace, split, matchAll). */
function run(once, all, s) {
  once.lastIndex = 0;
  once.exec(s);
  s.replace(all, '');
}

function time(once, all, s, times) {
  let best = Infinity;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    run(once, all, s);
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

parentPort.on('message', ({ source, flags, large, small, screenMs, slowMs, maxRatio }) => {
  const once = new RegExp(source, flags.replace(/[gy]/g, ''));
  const all = new RegExp(source, flags.includes('g') ? flags : flags + 'g');
  let checked = 0;
  let confirmed = 0;
  let worst = null;
  for (const input of inputs(source)) {
    checked++;
    // Screened at 10 kB: linear there is a fraction of a millisecond, quadratic tens of them.
    let tSmall = time(once, all, make(input, small), 2);
    if (tSmall < screenMs) continue;
    // Tens of milliseconds for 10 kB is already no linear pattern (and 100 kB would take minutes),
    // when the best of five says so too: a linear pattern took 63 ms twice on a loaded machine (a
    // pause of the process), and a quadratic one is that slow every time.
    if (tSmall > slowMs) tSmall = Math.min(tSmall, time(once, all, make(input, small), 5));
    if (tSmall > slowMs) {
      worst = { pump: input.pump, prefix: input.prefix, tSmall, tLarge: NaN, ratio: Infinity };
      break;
    }
    let tLarge = time(once, all, make(input, large), 1);
    let ratio = tLarge / tSmall;
    // A collection or another process can slow one run: look again before calling it super-linear.
    if (ratio > maxRatio) {
      tSmall = Math.max(tSmall, time(once, all, make(input, small), 5));
      tLarge = time(once, all, make(input, large), 3);
      ratio = tLarge / tSmall;
    }
    // Still over: a 10 kB run near a millisecond is mostly noise on a loaded machine (linear
    // patterns that replace every character measured 30-42× there). Doubling the large input
    // tells the growth apart from noise at sizes where a run takes tens of milliseconds: linear
    // doubles, quadratic quadruples. The ratio is then the one that growth gives over 10×
    // (growth^log2(10): 2× → 10×, 4× → 100×).
    if (ratio > maxRatio) {
      const growth = time(once, all, make(input, large * 2), 3) / tLarge;
      ratio = Math.min(ratio, growth ** Math.log2(10));
    }
    if (!worst || ratio > worst.ratio) worst = { pump: input.pump, prefix: input.prefix, tSmall, tLarge, ratio };
    // A super-linear input is enough; so are a few slow ones (a quadratic 100 kB costs seconds).
    if (ratio > maxRatio || ++confirmed >= 3) break;
  }
  parentPort.postMessage({ worst: worst && worst.ratio > maxRatio ? worst : null, checked });
});
`;

interface Result {
  worst: { pump: string; prefix: string; tSmall: number; tLarge: number; ratio: number } | null;
  checked: number;
}

/** A worker that times patterns one at a time; a pattern that takes longer than `timeoutMs` fails. */
class Checker {
  private worker = this.start();
  private start() {
    return new Worker(WORKER, { eval: true });
  }
  check(re: RegExp, timeoutMs: number): Promise<Result | 'timeout'> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.worker.removeAllListeners();
        void this.worker.terminate();
        this.worker = this.start();
        resolve('timeout');
      }, timeoutMs);
      this.worker.once('message', (r: Result) => {
        clearTimeout(timer);
        this.worker.removeAllListeners('error');
        resolve(r);
      });
      this.worker.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      this.worker.postMessage({ source: re.source, flags: re.flags, large: 100_000, small: 10_000, screenMs: 1, slowMs: 50, maxRatio: 30 });
    });
  }
  close() {
    return this.worker.terminate();
  }
}

describe('regular expressions of the service take linear time', () => {
  const found = findRegexes();

  it('finds the patterns, and every RegExp built at run time is listed', () => {
    expect(found.length).toBeGreaterThan(100);
    const dynamic = found.filter((f) => f.source === undefined);
    const unlisted = dynamic.filter((f) => !DYNAMIC.some((d) => d.file === f.file && f.text.startsWith(d.text)));
    expect(unlisted.map((f) => `${f.where} ${f.text}`)).toEqual([]);
    // A listed one that is gone is removed from the list.
    const stale = DYNAMIC.filter((d) => !dynamic.some((f) => d.file === f.file && f.text.startsWith(d.text)));
    expect(stale.map((d) => `${d.file} ${d.text}`)).toEqual([]);
    const staleTrusted = TRUSTED.filter((t) => !found.some((f) => f.file === t.file && f.source === t.source));
    expect(staleTrusted).toEqual([]);
  });

  it('the check itself tells a quadratic pattern from linear ones', { timeout: 5 * 60_000 }, async () => {
    const checker = new Checker();
    try {
      // Each start position scans the rest of a run of "a" for a "b" that never comes: quadratic.
      const quadratic = await checker.check(/a*b/, 120_000);
      expect(quadratic === 'timeout' || quadratic.worst !== null, 'a*b is found super-linear').toBe(true);
      // The two that a loaded machine once measured at 30-42× (they replace every character).
      for (const linear of [/[",\n\r]/, /[\\%_]/g]) expect((await checker.check(linear, 60_000)) as Result, String(linear)).toMatchObject({ worst: null });
    } finally {
      await checker.close();
    }
  });

  it('no pattern is super-linear on 100 kB of adversarial input', { timeout: 15 * 60_000 }, async () => {
    const patterns: { where: string; re: RegExp }[] = [];
    for (const f of found) {
      if (f.source === undefined) continue;
      if (TRUSTED.some((t) => t.file === f.file && t.source === f.source)) continue;
      patterns.push({ where: f.where, re: new RegExp(f.source, f.flags) });
    }
    for (const d of DYNAMIC) for (const re of d.patterns) patterns.push({ where: `${d.file} ${d.text}`, re });
    const checker = new Checker();
    const slow: string[] = [];
    let inputs = 0;
    try {
      for (const { where, re } of patterns) {
        const r = await checker.check(re, 60_000);
        if (r === 'timeout') slow.push(`${where} ${re}: still running after 60 s (exponential?)`);
        else {
          inputs += r.checked;
          const w = r.worst;
          if (w)
            slow.push(
              `${where} ${re}: ${JSON.stringify(w.prefix)} + ${JSON.stringify(w.pump)}×n: 10 kB ${w.tSmall.toFixed(1)} ms, 100 kB ${Number.isNaN(w.tLarge) ? 'not tried' : `${w.tLarge.toFixed(1)} ms (${w.ratio.toFixed(0)}×)`}`,
            );
        }
      }
    } finally {
      await checker.close();
    }
    expect(slow).toEqual([]);
    expect(inputs).toBeGreaterThan(patterns.length * 50);
  });
});
