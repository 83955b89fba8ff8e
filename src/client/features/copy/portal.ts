/**
 * The documented item operations a copy needs, against any portal the console holds a token for
 * (the source and the target are two connections at once, so these do not use the session's
 * connection). Only operations of the ArcGIS REST reference: search, item, item data, thumbnail
 * (info/<file>), item resources (list and read), addItem, update, addResources, updateResources,
 * delete. Files are bytes, and multipart bodies are built here, so that the same code runs in a
 * browser and in Node (the tests), whatever FormData and Blob the environment has.
 */
import { ApiError, readAnswer, request, type Item, type Params } from '../../api/index.ts';

export interface PortalConnection {
  /** …/sharing/rest */
  portalUrl: string;
  token: string;
  username: string;
  /** The organization items are created in (the signed-in member's). */
  orgId: string;
  /** What to call it: the portal's name and the member, for the dialog. */
  label: string;
}

export interface FilePart {
  bytes: Uint8Array;
  filename: string;
  contentType?: string;
}

type Fields = Record<string, string | number | boolean | readonly string[] | FilePart | undefined>;

const seg = encodeURIComponent;
const userItem = (owner: string, id: string) => `content/users/${seg(owner)}/items/${seg(id)}`;

function call<T>(c: PortalConnection, path: string, params: Params = {}, method: 'GET' | 'POST' = 'GET'): Promise<T> {
  return request<T>(path, params, { portalUrl: c.portalUrl, token: c.token, method });
}

/** Items matching a search query (the first 100). */
export async function searchItems(c: PortalConnection, q: string): Promise<Item[]> {
  return (await call<{ results: Item[] }>(c, 'search', { q, num: 100 })).results;
}

export function getItem(c: PortalConnection, id: string): Promise<Item> {
  return call<Item>(c, `content/items/${seg(id)}`);
}

/** A file the portal serves (data, thumbnail, resource): its bytes, or an ApiError for an error answer. */
async function readFile(c: PortalConnection, path: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  const url = `${c.portalUrl}/${path}`;
  const res = await fetch(url, { headers: { 'X-Esri-Authorization': `Bearer ${c.token}` } });
  const contentType = res.headers.get('content-type') ?? 'application/octet-stream';
  const bytes = new Uint8Array(await res.arrayBuffer());
  // An error can come as JSON with 200 (the portal's envelope) or with an HTTP error status.
  if (!res.ok || (contentType.includes('json') && bytes.length < 4096 && /^\s*\{\s*"error"/.test(new TextDecoder().decode(bytes)))) {
    readAnswer(res.ok ? 200 : res.status, res.statusText, new TextDecoder().decode(bytes), url);
    throw new ApiError({ code: res.status, message: `HTTP ${res.status}`, url });
  }
  return { bytes, contentType };
}

/** The item's data: its file or its text (null when it has none). */
export async function readItemData(c: PortalConnection, id: string): Promise<{ bytes: Uint8Array; contentType: string } | null> {
  try {
    const file = await readFile(c, `content/items/${seg(id)}/data`);
    return file.bytes.length ? file : null;
  } catch (err) {
    if (err instanceof ApiError && (err.code === 404 || err.code === 400)) return null;
    throw err;
  }
}

export async function readThumbnail(c: PortalConnection, item: Pick<Item, 'id' | 'thumbnail'>): Promise<FilePart | null> {
  if (!item.thumbnail) return null;
  const file = await readFile(c, `content/items/${seg(item.id)}/info/${item.thumbnail.split('/').map(seg).join('/')}`);
  return { bytes: file.bytes, contentType: file.contentType, filename: item.thumbnail.split('/').pop() || 'thumbnail.png' };
}

export interface ResourceEntry {
  resource: string;
  size?: number;
}

/** The item's resources, every page (a portal holds at most 1,000 per item; a page may hold fewer than asked for). */
export async function listResources(c: PortalConnection, id: string): Promise<ResourceEntry[]> {
  const out: ResourceEntry[] = [];
  let start = 1;
  while (start > 0 && out.length < 1000) {
    const page = await call<{ resources?: ResourceEntry[]; nextStart?: number }>(c, `content/items/${seg(id)}/resources`, { start, num: 100 });
    out.push(...(page.resources ?? []));
    start = page.resources?.length && page.nextStart !== undefined ? page.nextStart : -1;
  }
  return out;
}

export async function readResource(c: PortalConnection, id: string, resource: string): Promise<FilePart> {
  const file = await readFile(c, `content/items/${seg(id)}/resources/${resource.split('/').map(seg).join('/')}`);
  return { bytes: file.bytes, contentType: file.contentType, filename: resource.split('/').pop() || resource };
}

/** A multipart/form-data body: plain fields first, then the files. */
export function multipartBody(fields: Fields): { body: Uint8Array; contentType: string } {
  const boundary = `----copy${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const enc = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const quote = (s: string) => s.replace(/["\r\n]/g, '_');
  const files: [string, FilePart][] = [];
  for (const [key, value] of Object.entries({ f: 'json', ...fields })) {
    if (value === undefined) continue;
    if (typeof value === 'object' && 'bytes' in value) {
      files.push([key, value]);
      continue;
    }
    const text = Array.isArray(value) ? value.join(',') : String(value);
    chunks.push(enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${text}\r\n`));
  }
  for (const [key, file] of files) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${key}"; filename="${quote(file.filename)}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    chunks.push(enc.encode(head), file.bytes, enc.encode('\r\n'));
  }
  chunks.push(enc.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.length;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function postMultipart<T>(c: PortalConnection, path: string, fields: Fields): Promise<T> {
  const url = `${c.portalUrl}/${path}`;
  const { body, contentType } = multipartBody(fields);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': contentType, 'X-Esri-Authorization': `Bearer ${c.token}` },
    body: body as unknown as BodyInit,
  });
  return readAnswer<T>(res.status, res.statusText, await res.text(), url);
}

/** Item fields as addItem and update take them (only the ones given are sent). */
export interface ItemWrite {
  title?: string;
  type?: string;
  typeKeywords?: readonly string[];
  tags?: readonly string[];
  snippet?: string;
  description?: string;
  accessInformation?: string;
  licenseInfo?: string;
  url?: string;
  /** `xmin,ymin,xmax,ymax` in WGS84, as Add Item takes it. */
  extent?: string;
  spatialReference?: string;
  culture?: string;
  /** JSON text. */
  properties?: string;
  text?: string;
  file?: FilePart;
  thumbnail?: FilePart;
}

function fieldsOf(w: ItemWrite): Fields {
  return { ...w, tags: w.tags ? [...w.tags] : undefined, typeKeywords: w.typeKeywords ? [...w.typeKeywords] : undefined };
}

export async function addItem(c: PortalConnection, w: ItemWrite): Promise<string> {
  return (await postMultipart<{ id: string }>(c, `content/users/${seg(c.username)}/addItem`, fieldsOf(w))).id;
}

export async function updateItem(c: PortalConnection, owner: string, id: string, w: ItemWrite): Promise<void> {
  await postMultipart(c, `${userItem(owner, id)}/update`, fieldsOf(w));
}

export async function writeResource(c: PortalConnection, owner: string, id: string, resource: string, file: FilePart, mode: 'add' | 'update'): Promise<void> {
  const slash = resource.lastIndexOf('/');
  const fileName = resource.slice(slash + 1);
  const prefix = slash > 0 ? resource.slice(0, slash) : undefined;
  await postMultipart(c, `${userItem(owner, id)}/${mode}Resources`, { file: { ...file, filename: fileName }, fileName, resourcesPrefix: prefix });
}

export async function deleteItem(c: PortalConnection, owner: string, id: string): Promise<void> {
  await call(c, `${userItem(owner, id)}/delete`, {}, 'POST');
}
