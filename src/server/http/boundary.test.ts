/** The boundary check on its own: which strings it refuses, and how the refusal names the parameter. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/limits.ts';
import { checkParsedParams, checkPathParams, checkRawParams, unstorable } from './boundary.ts';
import type { ApiError } from './errors.ts';

function refusal(fn: () => void): { code: number; details: unknown[]; fieldErrors?: Record<string, string> } | null {
  try {
    fn();
    return null;
  } catch (err) {
    const e = err as ApiError;
    return { code: e.code, details: e.details, fieldErrors: e.fieldErrors };
  }
}

describe('unstorable', () => {
  it('accepts text, control characters other than NUL, and surrogate pairs', () => {
    for (const s of ['', 'plain', 'tab\tand\nnewline', '\u0001\u001f\u007f', 'emoji 😀 and 𝄞', '\uFFFE\uFFFF', '\uD83D\uDE00'])
      expect(unstorable(s), JSON.stringify(s)).toBeNull();
  });

  it('refuses NUL and lone surrogates anywhere, naming the code point', () => {
    expect(unstorable('\u0000')).toBe('contains a character that cannot be stored (U+0000)');
    expect(unstorable('abc\u0000')).toBe('contains a character that cannot be stored (U+0000)');
    expect(unstorable('x\uD83D')).toBe('contains a lone surrogate that cannot be stored (U+D83D)');
    expect(unstorable('\uDE00x')).toBe('contains a lone surrogate that cannot be stored (U+DE00)');
    // A pair in the wrong order is two lone surrogates.
    expect(unstorable('\uDE00\uD83D')).toBe('contains a lone surrogate that cannot be stored (U+DE00)');
    expect(unstorable('😀\uD800😀')).toBe('contains a lone surrogate that cannot be stored (U+D800)');
  });
});

describe('checkRawParams', () => {
  it('names the parameter, inside repeated values and JSON bodies too', () => {
    expect(refusal(() => checkRawParams({ f: 'json', users: ['a', 'b\u0000'] }))).toEqual({
      code: 400,
      details: ["'users' contains a character that cannot be stored (U+0000)"],
      fieldErrors: { users: 'contains a character that cannot be stored (U+0000)' },
    });
    expect(refusal(() => checkRawParams({ config: { deep: [{ x: '\uDC00' }] } }))?.fieldErrors).toEqual({
      config: 'contains a lone surrogate that cannot be stored (U+DC00)',
    });
    expect(refusal(() => checkRawParams({ config: { 'k\u0000': 1 } }))?.fieldErrors).toEqual({
      config: 'holds a key that contains a character that cannot be stored (U+0000)',
    });
  });

  it('caps each value at the default unless the operation declares more', () => {
    const long = 'x'.repeat(LIMITS.paramChars + 1);
    expect(refusal(() => checkRawParams({ title: 'x'.repeat(LIMITS.paramChars) }))).toBeNull();
    expect(refusal(() => checkRawParams({ title: long }))?.fieldErrors).toEqual({ title: `is too long (at most ${LIMITS.paramChars} characters)` });
    expect(refusal(() => checkRawParams({ text: long }, { text: LIMITS.formBodyBytes }))).toBeNull();
    expect(refusal(() => checkRawParams({ title: long }, { text: LIMITS.formBodyBytes }))?.fieldErrors).toHaveProperty('title');
  });

  it('refuses bad parameter names, too many parameters and too many values in one', () => {
    expect(refusal(() => checkRawParams({ 'a\u0000b': '1' }))?.fieldErrors).toEqual({
      'a\uFFFDb': 'is a parameter name that contains a character that cannot be stored (U+0000)',
    });
    expect(refusal(() => checkRawParams({ ['n'.repeat(LIMITS.paramNameChars + 1)]: '1' }))?.code).toBe(400);
    const many = Object.fromEntries(Array.from({ length: LIMITS.paramsPerRequest + 1 }, (_, i) => [`p${i}`, '1']));
    expect(refusal(() => checkRawParams(many))?.details).toEqual([
      `The request has ${LIMITS.paramsPerRequest + 1} parameters; at most ${LIMITS.paramsPerRequest} are accepted.`,
    ]);
    expect(refusal(() => checkRawParams({ ids: Array.from({ length: LIMITS.valuesPerParam }, () => 'x') }))?.fieldErrors).toEqual({
      ids: `holds more than ${LIMITS.valuesPerParam} values`,
    });
  });

  it('refuses nesting deeper than the JSON depth limit, without exhausting the stack itself', () => {
    const nest = (levels: number, inner: unknown) => {
      let v = inner;
      for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
      return v;
    };
    expect(refusal(() => checkRawParams({ nested: nest(50_000, 'x') }))?.fieldErrors).toEqual({
      nested: `must not be nested more than ${LIMITS.jsonDepth} levels deep`,
    });
    expect(refusal(() => checkRawParams({ nested: nest(LIMITS.jsonDepth, 'x') }))).toBeNull();
    expect(refusal(() => checkRawParams({ nested: nest(LIMITS.jsonDepth + 1, 'x') }))?.code).toBe(400);
    expect(refusal(() => checkRawParams({ nested: nest(10, 'x\u0000') }))?.fieldErrors).toEqual({
      nested: 'contains a character that cannot be stored (U+0000)',
    });
  });
});

describe('checkPathParams and checkParsedParams', () => {
  it('names path segments, the wildcard as `path`', () => {
    expect(refusal(() => checkPathParams({ itemId: 'a\u0000' }))?.fieldErrors).toEqual({ itemId: 'contains a character that cannot be stored (U+0000)' });
    expect(refusal(() => checkPathParams({ '*': 'a/\u0000' }))?.fieldErrors).toEqual({ path: 'contains a character that cannot be stored (U+0000)' });
    expect(refusal(() => checkPathParams({ username: 'admin' }))).toBeNull();
  });

  it('checks strings and keys of parsed values, not their length (the schema bounds that)', () => {
    expect(refusal(() => checkParsedParams({ apps: [{ itemId: 'a\u0000' }] }))?.fieldErrors).toEqual({
      apps: 'contains a character that cannot be stored (U+0000)',
    });
    expect(refusal(() => checkParsedParams({ parameters: { '\uD800': 1 } }))?.fieldErrors).toEqual({
      parameters: 'holds a key that contains a lone surrogate that cannot be stored (U+D800)',
    });
    expect(refusal(() => checkParsedParams({ text: 'x'.repeat(LIMITS.paramChars * 2), when: new Date(), n: 5 }))).toBeNull();
  });
});
