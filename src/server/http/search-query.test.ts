/** The search `q` parser: the tree it builds, and the SQL condition it compiles to. */
import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { compileQuery, parseQuery, tokenizeQuery, type QueryLeaf } from './search-query.ts';

const term = (value: string, field?: string, extra: Partial<{ phrase: boolean; prefix: boolean }> = {}) => ({
  kind: 'term',
  ...(field ? { field } : {}),
  value,
  phrase: false,
  prefix: false,
  ...extra,
});

/** A readable rendering: leaves as field=value, operators as words. */
function show(q: string): string {
  return compileQuery(parseQuery(q), (l: QueryLeaf) =>
    l.kind === 'range' ? `${l.field}${l.inclusive ? '[' : '{'}${l.from}..${l.to}` : `${l.field ?? '*'}=${l.value}${l.prefix ? '*' : ''}`,
  );
}

describe('parseQuery', () => {
  it('reads everything for empty text and *', () => {
    expect(parseQuery('')).toEqual({ kind: 'all' });
    expect(parseQuery('  ')).toEqual({ kind: 'all' });
    expect(parseQuery('*')).toEqual({ kind: 'all' });
    expect(parseQuery(undefined)).toEqual({ kind: 'all' });
  });

  it('reads field:value and "field: value" (space after the colon, as rest-js sends it)', () => {
    expect(parseQuery('id: abc AND group: g1')).toEqual({ kind: 'and', children: [term('abc', 'id'), term('g1', 'group')] });
    expect(parseQuery('id:abc AND group:g1')).toEqual(parseQuery('id: abc AND group: g1'));
    expect(parseQuery('Title:x')).toEqual(term('x', 'title'));
  });

  it('joins terms without an operator with AND; OR binds looser than AND', () => {
    expect(show('a b')).toBe('(*=a AND *=b)');
    expect(show('a AND b OR c')).toBe('((*=a AND *=b) OR *=c)');
    expect(show('a OR b c')).toBe('(*=a OR (*=b AND *=c))');
  });

  it('reads NOT and -term, parentheses and field:(a OR b)', () => {
    expect(show('a NOT b')).toBe('(*=a AND (NOT *=b))');
    expect(show('a -b')).toBe('(*=a AND (NOT *=b))');
    expect(show('(a OR b) AND c')).toBe('((*=a OR *=b) AND *=c)');
    expect(show('tags:(red OR blue)')).toBe('(tags=red OR tags=blue)');
    expect(show('NOT owner:x')).toBe('(NOT owner=x)');
  });

  it('reads quoted phrases, with and without a field', () => {
    expect(parseQuery('"Web Map"')).toEqual(term('Web Map', undefined, { phrase: true }));
    expect(parseQuery('type:"Web Mapping Application"')).toEqual(term('Web Mapping Application', 'type', { phrase: true }));
    expect(parseQuery('title: "a b"')).toEqual(term('a b', 'title', { phrase: true }));
  });

  it('reads ranges [a TO b] (inclusive) and {a TO b} (exclusive), with * open ends', () => {
    expect(parseQuery('created:[1000 TO 2000]')).toEqual({ kind: 'range', field: 'created', from: '1000', to: '2000', inclusive: true });
    expect(parseQuery('modified:{1 TO *}')).toEqual({ kind: 'range', field: 'modified', from: '1', to: '*', inclusive: false });
    expect(show('created: [0 TO 5] AND a')).toBe('(created[0..5 AND *=a)');
  });

  it('drops boosts and marks trailing * as a prefix', () => {
    expect(parseQuery('title:park^5')).toEqual(term('park', 'title'));
    expect(parseQuery('par*')).toEqual(term('par', undefined, { prefix: true }));
  });

  it('forgives unbalanced parentheses and quotes and stray operators', () => {
    expect(show('(a OR b')).toBe('(*=a OR *=b)');
    expect(show('a) b')).toBe('(*=a AND *=b)');
    expect(show('"open phrase')).toBe('*=open phrase');
    expect(show('AND a OR')).toBe('*=a');
    expect(show('title:')).toBe('TRUE');
  });

  it('refuses nesting deeper than 32 levels, reads 32', () => {
    expect(show(`${'('.repeat(32)}a${')'.repeat(32)}`)).toBe('*=a');
    expect(() => parseQuery(`${'('.repeat(33)}a${')'.repeat(33)}`)).toThrow(ApiError);
    expect(() => parseQuery(`${'NOT '.repeat(40)}a`)).toThrow(ApiError);
  });

  it('tokenizeQuery lists the terms with their fields', () => {
    expect(tokenizeQuery('owner:u1 AND (x OR title:"a b")')).toEqual([{ field: 'owner', value: 'u1' }, { value: 'x' }, { field: 'title', value: 'a b' }]);
  });
});
