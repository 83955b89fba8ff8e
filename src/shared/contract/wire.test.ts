import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commaList, jsonObject, pageEnvelope, pagingParams, sortOrder, wireBool, wireInt } from './wire.ts';

describe('wireBool', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    [true, true],
    ['false', false],
    ['FALSE', false],
    [false, false],
    ['', false],
  ])('reads %j as %s', (input, expected) => {
    expect(wireBool.parse(input)).toBe(expected);
  });

  it.each(['yes', '1', 'on', 'tru', 1, null])('refuses %j', (input) => {
    expect(wireBool.safeParse(input).success).toBe(false);
  });
});

describe('wireInt', () => {
  const int = wireInt(1, 100);

  it('reads decimal text and numbers', () => {
    expect(int.parse('42')).toBe(42);
    expect(int.parse(' 7 ')).toBe(7);
    expect(int.parse(100)).toBe(100);
    expect(wireInt(-10, 10).parse('-3')).toBe(-3);
  });

  it('refuses text that is not a whole number, with a message saying so', () => {
    for (const bad of ['4.5', '1e3', 'abc', '', '0x10', '12abc']) {
      const r = int.safeParse(bad);
      expect(r.success, bad).toBe(false);
    }
    expect(int.safeParse('abc').error?.issues[0].message).toBe('must be a whole number');
    expect(int.safeParse(4.5).success).toBe(false);
  });

  it('enforces the bounds', () => {
    expect(int.safeParse('0').success).toBe(false);
    expect(int.safeParse('101').success).toBe(false);
    expect(int.safeParse(1).success).toBe(true);
  });
});

describe('commaList', () => {
  it('splits comma-joined text, trimming and dropping blanks', () => {
    expect(commaList.parse('a,b,c')).toEqual(['a', 'b', 'c']);
    expect(commaList.parse(' a , b ,, c ,')).toEqual(['a', 'b', 'c']);
    expect(commaList.parse('single')).toEqual(['single']);
  });

  it('reads empty text as an empty list (rest-js sends [] as "")', () => {
    expect(commaList.parse('')).toEqual([]);
    expect(commaList.parse('  ')).toEqual([]);
  });

  it('reads JSON array text', () => {
    expect(commaList.parse('["a","b, with comma"]')).toEqual(['a', 'b, with comma']);
    expect(commaList.parse(' [ " x ", "" ] ')).toEqual(['x']);
    expect(commaList.parse('[]')).toEqual([]);
  });

  it('refuses JSON-looking text that is not an array of strings', () => {
    for (const bad of ['[1,2]', '["a",', '[{"a":1}]']) {
      const r = commaList.safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0].message).toBe('must be a comma-separated list or a JSON array of strings');
    }
  });

  it('takes an array as it is (trimmed)', () => {
    expect(commaList.parse([' a', 'b ', ''])).toEqual(['a', 'b']);
  });

  it('refuses other types', () => {
    expect(commaList.safeParse(5).success).toBe(false);
    expect(commaList.safeParse({ a: 1 }).success).toBe(false);
  });
});

describe('jsonObject', () => {
  const shape = jsonObject(z.object({ privileges: z.array(z.string()) }));

  it('parses JSON text and checks the shape', () => {
    expect(shape.parse('{"privileges":["a","b"]}')).toEqual({ privileges: ['a', 'b'] });
  });

  it('takes an object as it is', () => {
    expect(shape.parse({ privileges: ['x'] })).toEqual({ privileges: ['x'] });
  });

  it('refuses text that is not JSON, saying so', () => {
    const r = shape.safeParse('{privileges:');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe('must be valid JSON');
  });

  it('refuses JSON of the wrong shape', () => {
    expect(shape.safeParse('{"privileges":"a"}').success).toBe(false);
    expect(shape.safeParse('[]').success).toBe(false);
    expect(shape.safeParse('null').success).toBe(false);
  });
});

describe('pagingParams and sortOrder', () => {
  it('defaults to start 1, num 10', () => {
    expect(pagingParams.parse({})).toEqual({ start: 1, num: 10 });
  });

  it('clamps num to 100 and allows 0', () => {
    expect(pagingParams.parse({ num: '1000' }).num).toBe(100);
    expect(pagingParams.parse({ num: '0' }).num).toBe(0);
  });

  it('refuses start 0 and negative num', () => {
    expect(pagingParams.safeParse({ start: '0' }).success).toBe(false);
    expect(pagingParams.safeParse({ num: '-1' }).success).toBe(false);
  });

  it('reads sortOrder in any case, default asc', () => {
    expect(sortOrder.parse(undefined)).toBe('asc');
    expect(sortOrder.parse('DESC')).toBe('desc');
    expect(sortOrder.safeParse('down').success).toBe(false);
  });
});

describe('pageEnvelope', () => {
  it('points nextStart at the next page while there is one', () => {
    expect(pageEnvelope(25, { start: 1, num: 10 }, 10)).toEqual({ total: 25, start: 1, num: 10, nextStart: 11 });
    expect(pageEnvelope(25, { start: 11, num: 10 }, 10)).toEqual({ total: 25, start: 11, num: 10, nextStart: 21 });
  });

  it('is -1 on the last page, full or not', () => {
    expect(pageEnvelope(25, { start: 21, num: 10 }, 5)).toEqual({ total: 25, start: 21, num: 5, nextStart: -1 });
    expect(pageEnvelope(20, { start: 11, num: 10 }, 10)).toEqual({ total: 20, start: 11, num: 10, nextStart: -1 });
  });

  it('is -1 for an empty page (past the end, or num 0)', () => {
    expect(pageEnvelope(5, { start: 50, num: 10 }, 0)).toEqual({ total: 5, start: 50, num: 0, nextStart: -1 });
    expect(pageEnvelope(5, { start: 1, num: 0 }, 0)).toEqual({ total: 5, start: 1, num: 0, nextStart: -1 });
    expect(pageEnvelope(0, { start: 1, num: 10 }, 0)).toEqual({ total: 0, start: 1, num: 0, nextStart: -1 });
  });
});
