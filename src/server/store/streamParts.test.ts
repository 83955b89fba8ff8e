/**
 * sendInParts (the splitter behind S3BlobStore.multipart.putStream) with a recording sender: the
 * cut, the numbering, the bound on what it holds, and a failing stream. Against a real store:
 * areas/items/streamedParts.s3.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { sendInParts, type PartCut } from './streamParts.ts';

const K = 1024;
const CUT: PartCut = { first: 17, count: 16, chunkBytes: 6 * K, minPartBytes: 5 * K };

/** `total` bytes in chunks of `chunk`, counting bytes as they are read; each byte is its offset mod 251. */
function source(total: number, chunk = 256) {
  const s = {
    read: 0,
    async *[Symbol.asyncIterator]() {
      for (let at = 0; at < total; at += chunk) {
        const n = Math.min(chunk, total - at);
        s.read += n;
        yield Buffer.from(Array.from({ length: n }, (_, i) => (at + i) % 251));
      }
    },
  };
  return s;
}

/** A sender that keeps what it got, and how far ahead of it the reader was when each part was sent. */
function recorder(src: { read: number }) {
  const r = { parts: [] as { n: number; bytes: Buffer }[], sent: 0, ahead: [] as number[] };
  const send = async (n: number, body: Buffer[], length: number) => {
    r.ahead.push(src.read - r.sent);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const bytes = Buffer.concat(body);
    expect(bytes.length).toBe(length);
    r.parts.push({ n, bytes });
    r.sent += length;
    return `etag-${n}`;
  };
  return { r, send };
}

describe('sendInParts', () => {
  it('cuts a stream into parts of chunkBytes, the last taking the rest (never below the minimum), numbered from first', async () => {
    for (const [total, sizes] of [
      [30 * K, [6, 6, 6, 6, 6]],
      [31 * K + 7, [6, 6, 6, 6, 7 + 7 / K]],
      [8 * K, [8]],
      [5 * K, [5]],
    ] as const) {
      const src = source(total);
      const { r, send } = recorder(src);
      const out = await sendInParts(src, CUT, send);
      expect(out).toEqual({ size: total, parts: r.parts.map((p) => ({ n: p.n, etag: `etag-${p.n}` })) });
      expect(r.parts.map((p) => p.bytes.length / K)).toEqual(sizes);
      expect(r.parts.map((p) => p.n)).toEqual(sizes.map((_, i) => 17 + i));
      const whole = Buffer.concat(r.parts.map((p) => p.bytes));
      expect(whole.every((b, i) => b === i % 251)).toBe(true);
    }
  });

  it('gives a stream shorter than the minimum back whole, sending nothing', async () => {
    const src = source(5 * K - 1);
    const { r, send } = recorder(src);
    const out = await sendInParts(src, CUT, send);
    expect('small' in out && out.small.length).toBe(5 * K - 1);
    expect(r.parts).toEqual([]);
  });

  it('holds at most two parts, or a part and the minimum (and one chunk), whatever the length', async () => {
    const src = source(600 * K);
    const { r, send } = recorder(src);
    await sendInParts(src, { ...CUT, count: 100 }, send);
    expect(r.parts.length).toBe(100);
    expect(Math.max(...r.ahead)).toBeLessThanOrEqual(Math.max(2 * CUT.chunkBytes, CUT.chunkBytes + CUT.minPartBytes) + 256);
  });

  it('refuses to run past its numbers', async () => {
    const src = source(30 * K);
    const { send } = recorder(src);
    await expect(sendInParts(src, { ...CUT, count: 3 }, send)).rejects.toThrow('more than its 3 store parts');
  });

  it('a stream that fails passes its error on once the part in flight is settled', async () => {
    let settled = false;
    async function* failing() {
      for (let i = 0; i < 12 * 4; i++) yield Buffer.alloc(256);
      throw new Error('client gone');
    }
    const send = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      settled = true;
      return 'etag';
    };
    await expect(sendInParts(failing(), CUT, send)).rejects.toThrow('client gone');
    expect(settled).toBe(true);
  });
});
