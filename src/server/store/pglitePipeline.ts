/**
 * Parameterised queries on PGlite in one pass through the database instead of six.
 *
 * PGlite's `query()` sends the extended protocol one message at a time (Parse, Describe statement,
 * Bind, Describe portal, Execute, Sync), each a separate call into the WebAssembly backend, because it
 * asks for the parameters' types before it encodes their values. Those types belong to the statement
 * text, so they are asked once per text and kept; after that the whole exchange is one batch, as
 * node-postgres sends it. Measured on 5,000 reads of one row by key (with --liftoff-only, as the
 * service runs): 630 → 430 µs of CPU each. The text is also prepared under a name the first time
 * (the Parse that asks its types), so later calls only bind and execute it: the database neither
 * parses nor analyses it again, and after five calls may keep a generic plan, as PostgreSQL's JDBC
 * driver does with its server-side statements (a count of an organization's members: about 250 →
 * 100 µs of CPU). Values are encoded exactly as PGlite encodes them (its serializer
 * for the parameter's type, else `toString()`), results are parsed by its own parsers, errors are
 * its DatabaseError with the query and parameters attached as its own `query()` attaches them.
 *
 * It uses three members PGlite has in JavaScript but not in its types: its two locks and its
 * serializers/parsers. `pipelined()` answers undefined when they are missing (another PGlite
 * version), and the adapter then uses `query()`.
 */
import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';

interface PgliteInternals {
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  serializers: Record<number, ((value: unknown) => string) | undefined>;
  parsers: Parameters<typeof parse.parseResults>[1];
}

export type PipelinedQuery = <T>(sql: string, params: readonly unknown[] | undefined, inTransaction: boolean) => Promise<Results<T>>;

/**
 * Statement texts kept prepared, the least recently used closed past this. Texts are few (they are
 * written in the code; a list's filters make a few dozen shapes), and each keeps its plan in the
 * database's memory, which WebAssembly never gives back: a bound, not a cache of every text.
 */
export const STATEMENTS_KEPT = 200;

/** A statement text prepared under a name, with the parameter types the database gave it. */
interface Prepared {
  name: string;
  types: number[];
}

/** What one database keeps prepared, shared by every pipelined() over it (names are the database's). */
interface Kept {
  /** By text, least recently used first (a Map keeps insertion order; a use moves the text last). */
  statements: Map<string, Prepared>;
  /** Names evicted or found stale, closed with the next preparation (closing an unknown name is no error). */
  toClose: string[];
  named: number;
}

const keptByDb = new WeakMap<PGlite, Kept>();

function keptFor(pg: PGlite): Kept {
  let kept = keptByDb.get(pg);
  if (!kept) keptByDb.set(pg, (kept = { statements: new Map(), toClose: [], named: 0 }));
  return kept;
}

/** The pipelined query for `pg`, or undefined when this PGlite lacks what it relies on. */
export function pipelined(pg: PGlite): PipelinedQuery | undefined {
  const internals = pg as unknown as Partial<PgliteInternals>;
  if (typeof internals._runExclusiveQuery !== 'function' || typeof internals._runExclusiveTransaction !== 'function') return undefined;
  if (!internals.serializers || !internals.parsers || typeof pg.execProtocolStream !== 'function') return undefined;
  const { serializers, parsers } = internals as PgliteInternals;
  const runQuery = internals._runExclusiveQuery.bind(pg);
  const runAlone = internals._runExclusiveTransaction.bind(pg);
  const kept = keptFor(pg);
  const { statements } = kept;
  const { serialize } = protocol;

  /**
   * The text's named statement, prepared on first use (with the statements to close sent first).
   * Other statements than queries (a migration's DDL) are prepared unnamed, as before, and forget
   * every kept one: a table they change may no longer give a kept plan's columns, which PostgreSQL
   * refuses rather than replanning.
   */
  async function preparedFor(sql: string, params: boolean): Promise<Prepared> {
    if (!PLANNABLE.test(sql)) {
      for (const { name } of statements.values()) kept.toClose.push(name);
      statements.clear();
      if (!params) return { name: '', types: [] };
      return { name: '', types: parse.parseDescribeStatementResults(await send([serialize.parse({ text: sql }), serialize.describe({ type: 'S' })])) };
    }
    const known = statements.get(sql);
    if (known) {
      statements.delete(sql);
      statements.set(sql, known);
      return known;
    }
    if (statements.size >= STATEMENTS_KEPT) {
      const [oldest] = statements;
      statements.delete(oldest[0]);
      kept.toClose.push(oldest[1].name);
    }
    const name = `pipelined_${++kept.named}`;
    const prepared = {
      name,
      types: parse.parseDescribeStatementResults(await send([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name })])),
    };
    statements.set(sql, prepared);
    return prepared;
  }

  /** `messages` and a Sync in one batch, after closing the names waiting to be closed. */
  async function send(messages: Uint8Array[]) {
    const closing = kept.toClose;
    const answer = await pg.execProtocolStream(batch([...closing.map((name) => serialize.close({ type: 'S', name })), ...messages, serialize.sync()]), {
      syncToFs: false,
    });
    kept.toClose = kept.toClose.filter((name) => !closing.includes(name));
    return answer;
  }

  async function run<T>(sql: string, params: readonly unknown[], inTransaction: boolean): Promise<Results<T>> {
    try {
      const { name, types } = await preparedFor(sql, params.length > 0);
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const encode = serializers[types[i]];
        return encode ? encode(param) : String(param);
      });
      let messages;
      try {
        messages = await pg.execProtocolStream(
          batch([
            ...(name ? [] : [serialize.parse({ text: sql })]),
            serialize.bind({ statement: name, values }),
            serialize.describe({ type: 'P' }),
            serialize.execute({}),
            serialize.sync(),
          ]),
          { syncToFs: false },
        );
      } catch (e) {
        // A table changed under a kept plan by DDL sent some other way (pg.exec): prepared anew at the
        // next call, as PostgreSQL's drivers do with their named statements.
        if (name && e instanceof Error && /cached plan must not change result type/.test(e.message) && statements.get(sql)?.name === name) {
          statements.delete(sql);
          kept.toClose.push(name);
        }
        throw e;
      }
      if (!inTransaction) await pg.syncToFs();
      return parse.parseResults(messages, parsers)[0] as Results<T>;
    } catch (e) {
      if (e instanceof Error && 'severity' in e) Object.assign(e, { query: sql, params });
      throw e;
    }
  }
  // As PGlite's own: a statement outside a transaction waits for any transaction to end; one inside
  // it only for the statement before it.
  return (sql, params = [], inTransaction) =>
    inTransaction ? runQuery(() => run(sql, params, true)) : runAlone(() => runQuery(() => run(sql, params, false)));
}

/** Statements PostgreSQL plans (and keeps a plan of when prepared); the rest are utility statements. */
const PLANNABLE = /^[\s(]*(select|insert|update|delete|with|values|table)\b/i;

function batch(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
