/**
 * Parameterised queries on PGlite in one pass through the database instead of six.
 *
 * PGlite's `query()` sends the extended protocol one message at a time (Parse, Describe statement,
 * Bind, Describe portal, Execute, Sync), each a separate call into the WebAssembly backend, because it
 * asks for the parameters' types before it encodes their values. Those types belong to the statement
 * text, so they are asked once per text and kept; after that the whole exchange is one batch, as
 * node-postgres sends it. Measured on 5,000 reads of one row by key (with --liftoff-only, as the
 * service runs): 630 → 430 µs of CPU each. Values are encoded exactly as PGlite encodes them (its serializer
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

/** Statement texts whose parameter types are kept; past this the map starts again (texts are few: they are written in the code). */
const TYPES_KEPT = 5_000;

/** The pipelined query for `pg`, or undefined when this PGlite lacks what it relies on. */
export function pipelined(pg: PGlite): PipelinedQuery | undefined {
  const internals = pg as unknown as Partial<PgliteInternals>;
  if (typeof internals._runExclusiveQuery !== 'function' || typeof internals._runExclusiveTransaction !== 'function') return undefined;
  if (!internals.serializers || !internals.parsers || typeof pg.execProtocolStream !== 'function') return undefined;
  const { serializers, parsers } = internals as PgliteInternals;
  const runQuery = internals._runExclusiveQuery.bind(pg);
  const runAlone = internals._runExclusiveTransaction.bind(pg);
  const paramTypes = new Map<string, number[]>();
  const { serialize } = protocol;

  async function typesOf(sql: string): Promise<number[]> {
    const known = paramTypes.get(sql);
    if (known) return known;
    const messages = await pg.execProtocolStream(batch([serialize.parse({ text: sql }), serialize.describe({ type: 'S' }), serialize.sync()]), {
      syncToFs: false,
    });
    const types = parse.parseDescribeStatementResults(messages);
    if (paramTypes.size >= TYPES_KEPT) paramTypes.clear();
    paramTypes.set(sql, types);
    return types;
  }

  async function run<T>(sql: string, params: readonly unknown[], inTransaction: boolean): Promise<Results<T>> {
    try {
      const types = params.length ? await typesOf(sql) : [];
      const values = params.map((param, i) => {
        if (param === null || param === undefined) return null;
        const encode = serializers[types[i]];
        return encode ? encode(param) : String(param);
      });
      const messages = await pg.execProtocolStream(
        batch([serialize.parse({ text: sql }), serialize.bind({ values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
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

function batch(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
