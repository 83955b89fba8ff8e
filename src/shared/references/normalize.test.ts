import { describe, expect, it } from 'vitest';
import { itemIdInUrl } from './normalize.ts';

const ID = 'abcdef0123456789abcdef0123456789';
const UPPER = ID.toUpperCase();

/** Milliseconds for `run(input)`, the best of `times` (the least disturbed by other work on the machine). */
function best(run: () => unknown, times: number): number {
  let min = Infinity;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    run();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

describe('itemIdInUrl', () => {
  it('reads an item id from a content URL', () => {
    expect(itemIdInUrl(`https://127.0.0.1:7105/sharing/rest/content/items/${UPPER}/resources/styles/root.json`)).toBe(ID);
    expect(itemIdInUrl(`https://127.0.0.1/sharing/rest/content/items/${ID}`)).toBe(ID);
    expect(itemIdInUrl(`https://127.0.0.1/sharing/rest/content/items/${ID}?f=json`)).toBe(ID);
    expect(itemIdInUrl(`https://127.0.0.1/sharing/rest/content/items/${ID}#x`)).toBe(ID);
    expect(itemIdInUrl(`/sharing/rest/CONTENT/ITEMS/${ID}/data`)).toBe(ID);
    // The first well-formed one counts, even after a malformed one.
    expect(itemIdInUrl(`https://127.0.0.1/content/items/xyz/content/items/${ID}/data`)).toBe(ID);
  });

  it('reads the id parameter of an item page', () => {
    expect(itemIdInUrl(`https://127.0.0.1/portal/home/item.html?id=${UPPER}`)).toBe(ID);
    expect(itemIdInUrl(`https://127.0.0.1/portal/home/item.html?foo=1&id=${ID}&bar=2`)).toBe(ID);
    expect(itemIdInUrl(`https://127.0.0.1/portal/home/item.html?&&id=${ID}#overview`)).toBe(ID);
    expect(itemIdInUrl(`https://127.0.0.1/portal/home/ITEM.HTML?ID=${ID}`)).toBe(ID);
  });

  it('answers nothing for what is not an item id', () => {
    for (const url of [
      `https://127.0.0.1/sharing/rest/content/items/${ID}0/data`,
      `https://127.0.0.1/sharing/rest/content/items/${ID.slice(1)}`,
      `https://127.0.0.1/sharing/rest/content/items/${ID}x`,
      `https://127.0.0.1/portal/home/item.html?id=${ID}0`,
      `https://127.0.0.1/portal/home/item.html?id=${ID.slice(1)}`,
      `https://127.0.0.1/portal/home/item.html?xid=${ID}`,
      `https://127.0.0.1/portal/home/item.html?foo=1#&id=${ID}`,
      `https://127.0.0.1/portal/home/item.html#?id=${ID}`,
      `https://127.0.0.1/portal/home/item.htm?id=${ID}`,
      'https://127.0.0.1/arcgis/rest/services/parcels/FeatureServer/0',
      '',
    ]) {
      expect(itemIdInUrl(url), url).toBeUndefined();
    }
  });

  it('takes time linear in the URL: the repeated item page query of a hostile web map', () => {
    // One layer `url` of `/item.html?&` repeated: each `item.html?` used to be tried against the
    // whole rest of the string (240 kB held the request thread for 7 s).
    const hostile = (bytes: number) => `https://127.0.0.1/${'/item.html?&'.repeat(Math.ceil(bytes / 12))}`.slice(0, bytes);
    const hostileItems = (bytes: number) => `https://127.0.0.1/${'/content/items/'.repeat(Math.ceil(bytes / 15))}`.slice(0, bytes);
    for (const make of [hostile, hostileItems]) {
      const small = make(10_000);
      const large = make(100_000);
      const tSmall = best(() => itemIdInUrl(small), 5);
      const tLarge = best(() => itemIdInUrl(large), 5);
      // Linear gives about 10× for 10× the input, quadratic 100×. Below a millisecond the figures are noise.
      expect(tLarge / Math.max(tSmall, 1) < 30, `10 kB ${tSmall.toFixed(2)} ms, 100 kB ${tLarge.toFixed(2)} ms`).toBe(true);
    }
  });
});
