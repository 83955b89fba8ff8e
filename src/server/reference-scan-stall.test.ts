/**
 * Reading an item's references (at addItem, the reference index) does not stall other requests
 * (issue 35 item 1): a member with the plain User role adds a Web Map whose layer `url` is 240 kB
 * of `/item.html?&` (7 s of request thread before), and requests made meanwhile are answered about
 * as promptly as while an ordinary web map of the same size is added. Measured with concurrent
 * requests against each other, not against a wall-clock figure, so that a loaded machine does not
 * decide it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/support/service.ts';

let svc: TestService;
let token: string;

beforeAll(async () => {
  svc = await startService();
  token = await svc.tokenFor('user1');
});
afterAll(() => svc?.close());

const BYTES = 240_000;
const hostileMap = () => JSON.stringify({ operationalLayers: [{ title: 'x', url: `https://127.0.0.1/${'/item.html?&'.repeat(BYTES / 12)}` }] });
// The same size, in a field the extractor does not read.
const ordinaryMap = () =>
  JSON.stringify({ operationalLayers: [{ title: 'x'.repeat(BYTES), url: 'https://127.0.0.1/arcgis/rest/services/S/FeatureServer/0' }] });

/**
 * Adds the map while asking for `rest/info` (no database, no sign-in) again and again, a timer
 * apart: the longest time between two answers, which is how long the event loop was held.
 */
async function longestWaitWhileAdding(text: string): Promise<number> {
  let adding = true;
  let longest = 0;
  const probing = (async () => {
    let last = performance.now();
    while (adding) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const res = await svc.app.inject({ method: 'GET', url: '/sharing/rest/info?f=json' });
      expect(res.statusCode).toBe(200);
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }
  })();
  const added = await svc.post('content/users/user1/addItem', { title: 'Map', type: 'Web Map', text }, token);
  adding = false;
  await probing;
  expect(added.success, JSON.stringify(added)).toBe(true);
  return longest;
}

describe('reading references does not stall other requests', () => {
  it('a hostile web map from a User is added while other requests are answered as promptly as for an ordinary one', async () => {
    // Best of a few: the least disturbed by other work on the machine.
    const ordinary = Math.min(
      await longestWaitWhileAdding(ordinaryMap()),
      await longestWaitWhileAdding(ordinaryMap()),
      await longestWaitWhileAdding(ordinaryMap()),
    );
    const hostile = Math.min(await longestWaitWhileAdding(hostileMap()), await longestWaitWhileAdding(hostileMap()));
    // Before: 10 kB of the hostile URL took about 16 ms, 240 kB seconds, while the ordinary map's
    // longest wait was tens of milliseconds.
    expect(hostile, `longest wait: hostile ${hostile.toFixed(0)} ms, ordinary ${ordinary.toFixed(0)} ms`).toBeLessThan(5 * ordinary + 50);
  }, 120_000);
});
