/** Reads from the portal under test over plain HTTP, for the suite's checks (not through solution.js). */

export function portalReader(restUrl) {
  const get = async (path, token, params = {}) => {
    const query = new URLSearchParams({ f: 'json', ...params, ...(token ? { token } : {}) });
    const res = await fetch(`${restUrl}/${path}?${query}`);
    return res;
  };
  return {
    /** The JSON answer of a GET (the error envelope included, for the checks that expect one). */
    async json(path, token, params) {
      return (await get(path, token, params)).json();
    },
    /** The bytes of a file the portal serves (item data, a thumbnail, a resource) and its content type. */
    async bytes(path, token) {
      const res = await get(path, token);
      return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: new Uint8Array(await res.arrayBuffer()) };
    },
  };
}
