/**
 * `content/items/<id>/data` of text data: JSON goes out as application/json, anything else as
 * text/plain; data over LIMITS.referenceParseOnThreadBytes is not parsed on the request thread to
 * decide (issue 35 item 1: one JSON.parse of up to 8 MB held every other request).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../../shared/limits.ts';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { looksLikeJson } from './read.ts';

let svc: TestService;
let token: string;

beforeAll(async () => {
  svc = await startService();
  token = await svc.tokenFor('admin');
});
afterAll(() => svc?.close());

async function addText(text: string): Promise<string> {
  const body = await svc.post('content/users/admin/addItem', { title: 'Notes', type: 'Code Sample', text }, token);
  expect(body.success).toBe(true);
  return body.id as string;
}

const data = (id: string) => svc.app.inject({ method: 'GET', url: `/sharing/rest/content/items/${id}/data?token=${token}` });

describe('text data content type', () => {
  it('short data: JSON as application/json, other text (even if it starts like JSON) as text/plain', async () => {
    expect((await data(await addText('{"a": [1, 2]}'))).headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await data(await addText('[not json'))).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await data(await addText('plain words'))).headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('large data is served whole, typed by its shape, with no JSON.parse of it on the request thread', async () => {
    const big = JSON.stringify({ notes: 'x'.repeat(LIMITS.referenceParseOnThreadBytes + 1_000) });
    const id = await addText(big);
    const parse = vi.spyOn(JSON, 'parse');
    const res = await data(id);
    const large = parse.mock.calls.filter(([text]) => String(text).length > LIMITS.referenceParseOnThreadBytes);
    parse.mockRestore();
    expect(large).toEqual([]);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe(big);
  });

  it('decides large text by shape: an object or an array from end to end', () => {
    const pad = ' '.repeat(LIMITS.referenceParseOnThreadBytes);
    expect(looksLikeJson(`${pad}{"a":1}\n`)).toBe(true);
    expect(looksLikeJson(`[1,2]${pad}`)).toBe(true);
    expect(looksLikeJson(`{"a":1${pad}`)).toBe(false);
    expect(looksLikeJson(`text${pad}`)).toBe(false);
  });
});
