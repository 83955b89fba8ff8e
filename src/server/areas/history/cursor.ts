/**
 * The `start` / `nextKey` cursor: the position (created, seq) of the last event a page returned and
 * the sort order it was read in, as base64url JSON. Positions are unique and never reused, so
 * paging neither skips nor repeats events while new ones arrive (docs/history.md).
 */
import { badParam } from '../../http/errors.ts';

export interface Position {
  created: number;
  seq: number;
}

export function encodeCursor(p: Position, order: 'asc' | 'desc'): string {
  return Buffer.from(JSON.stringify({ c: p.created, s: p.seq, o: order === 'asc' ? 'a' : 'd' })).toString('base64url');
}

export function decodeCursor(text: string, order: 'asc' | 'desc'): Position {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error('not base64url');
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badParam('start', 'is not a nextKey of this operation');
  }
  const v = value as { c?: unknown; s?: unknown; o?: unknown };
  if (
    !v ||
    typeof v !== 'object' ||
    !Number.isSafeInteger(v.c) ||
    !Number.isSafeInteger(v.s) ||
    (v.c as number) < 0 ||
    (v.s as number) < 0 ||
    (v.o !== 'a' && v.o !== 'd')
  ) {
    throw badParam('start', 'is not a nextKey of this operation');
  }
  if ((v.o === 'a') !== (order === 'asc'))
    throw badParam('start', `was returned for sortOrder=${v.o === 'a' ? 'asc' : 'desc'}; send the same sortOrder with it`);
  return { created: v.c as number, seq: v.s as number };
}
