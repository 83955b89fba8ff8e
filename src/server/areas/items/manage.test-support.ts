/** Test helpers for the item tests: items inserted with SQL, GET/POST/multipart through inject. */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestService } from '../../../../test/support/service.ts';

export interface NewItem {
  title?: string;
  type?: string;
  tags?: string[];
  typeKeywords?: string[];
  snippet?: string;
  description?: string;
  access?: 'private' | 'org' | 'public';
  folderId?: string | null;
  contentStatus?: string | null;
  protected?: boolean;
  text?: string;
  created?: number;
  modified?: number;
}

/** Inserts an item owned by `owner` directly (until addItem is used); answers its id. */
export async function insertItem(svc: TestService, owner: string, f: NewItem = {}): Promise<string> {
  const id = randomUUID().replaceAll('-', '');
  const now = f.created ?? Date.now();
  await svc.db.query(
    `INSERT INTO items (id, org_id, owner_id, folder_id, title, type, tags, type_keywords, snippet, description, access, content_status, protected,
                        data_kind, data_text, size, created, modified)
     SELECT $1, u.org_id, u.id, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17 FROM users u WHERE u.username = $2`,
    [
      id,
      owner,
      f.folderId ?? null,
      f.title ?? `Item ${id.slice(0, 6)}`,
      f.type ?? 'Web Map',
      f.tags ?? [],
      f.typeKeywords ?? [],
      f.snippet ?? null,
      f.description ?? null,
      f.access ?? 'private',
      f.contentStatus ?? null,
      f.protected ?? false,
      f.text === undefined ? 'none' : 'text',
      f.text ?? null,
      f.text === undefined ? 0 : Buffer.byteLength(f.text),
      now,
      f.modified ?? now,
    ],
  );
  return id;
}

export async function shareToGroup(svc: TestService, itemId: string, groupId: string): Promise<void> {
  await svc.db.query('INSERT INTO item_shares (item_id, group_id, shared) VALUES ($1, $2, 0)', [itemId, groupId]);
}

export async function get(svc: TestService, path: string, params: Record<string, string> = {}, token?: string) {
  const query = new URLSearchParams({ f: 'json', ...params, ...(token ? { token } : {}) });
  const res = await svc.app.inject({ method: 'GET', url: `/sharing/rest/${path}?${query}` });
  expect(res.statusCode).toBe(200);
  return res;
}

export async function getJson(svc: TestService, path: string, params: Record<string, string> = {}, token?: string) {
  return (await get(svc, path, params, token)).json();
}

export interface FilePart {
  filename: string;
  content: Buffer;
  type?: string;
}

/** POST multipart/form-data (text fields and file parts). */
export async function postMultipart(svc: TestService, path: string, fields: Record<string, string | FilePart>, token?: string) {
  const boundary = `----test${randomUUID()}`;
  const parts: Buffer[] = [];
  const all: Record<string, string | FilePart> = { f: 'json', ...fields, ...(token ? { token } : {}) };
  for (const [name, value] of Object.entries(all)) {
    if (typeof value === 'string') {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\nContent-Type: ${value.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        value.content,
        Buffer.from('\r\n'),
      );
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const res = await svc.app.inject({
    method: 'POST',
    url: `/sharing/rest/${path}`,
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

export async function eventsFor(svc: TestService, subjectId: string): Promise<{ operation: string; properties: Record<string, unknown> }[]> {
  return svc.db.query('SELECT operation, properties FROM events WHERE subject_id = $1 ORDER BY seq', [subjectId]);
}
