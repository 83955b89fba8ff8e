/**
 * The one place the suite changes what solution.js sends. solution.js 1.7.0 passes each template's
 * `id` — the `{{<source id>.itemId}}` placeholder, not yet resolved when the item is made — to
 * `addItem`. This portal keeps its rule for a client-supplied id (32 letters and digits, not taken;
 * docs/rest-operations.md "addItem with a client-supplied id") and refuses that value, so the suite
 * leaves such an `id` out of `addItem` requests, as a client that wants the portal to choose does.
 * Nothing else in any request is touched; `dropped` lists what was left out so the suite can assert it.
 */
const ITEM_ID = /^[A-Za-z0-9]{32}$/;
const ADD_ITEM = /\/content\/users\/[^/]+(\/[^/]+)?\/addItem$/;

export const dropped = [];

export function leaveOutPlaceholderIds() {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (url, init) => {
    if (ADD_ITEM.test(new URL(String(url)).pathname) && init?.body) {
      if (init.body instanceof FormData) {
        const id = init.body.get('id');
        if (id !== null && !ITEM_ID.test(String(id))) {
          dropped.push(String(id));
          init.body.delete('id');
        }
      } else if (typeof init.body === 'string') {
        const params = new URLSearchParams(init.body);
        const id = params.get('id');
        if (id !== null && !ITEM_ID.test(id)) {
          dropped.push(id);
          params.delete('id');
          init = { ...init, body: params.toString() };
        }
      }
    }
    return realFetch(url, init);
  };
}
