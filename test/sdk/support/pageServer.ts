/**
 * The conformance page's own origin: a static server on an ephemeral loopback port, so that the
 * portal is cross-origin to the app, as it is for real ArcGIS apps. Serves the built page at / and
 * the SDK's assets (esriConfig.assetsPath) at /arcgis-assets/ straight from node_modules.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/** A file under `root` for a URL path, or null when the path leaves it or names no file. */
function fileUnder(root: string, urlPath: string): string | null {
  const file = path.join(root, decodeURIComponent(urlPath));
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    return statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

export async function startPageServer(pageDir: string, assetsDir: string): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    const file = pathname.startsWith('/arcgis-assets/')
      ? fileUnder(assetsDir, pathname.slice('/arcgis-assets'.length))
      : fileUnder(pageDir, pathname === '/' ? '/index.html' : pathname);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // Chunks have content-hashed names: cached for good, so that the browser compiles the SDK
    // once per run (its code cache) rather than once per test. The page itself is never cached.
    const caching = pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': caching });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
