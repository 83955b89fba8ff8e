/** setContentStatus (spec §4.7), the organization's verification (portals update isVerified) and public sharing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { eventsFor, getJson, insertItem } from './manage.test-support.ts';

let svc: TestService;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
});
afterAll(() => svc.close());

const post = (path: string, params: Record<string, string>, who: string) => svc.post(path, params, tokens[who]);
const status = async (id: string) => (await getJson(svc, `content/items/${id}`, {}, tokens.admin)).contentStatus;
const setStatus = (id: string, s: string, who: string, extra: Record<string, string> = {}) =>
  post(`content/items/${id}/setContentStatus`, { status: s, ...extra }, who);
const setOrg = (params: Record<string, string>) => post(`portals/${svc.orgId}/update`, params, 'admin');

describe('setContentStatus', () => {
  it('deprecated: the owner or an administrator; not another member', async () => {
    const id = await insertItem(svc, 'user1', { access: 'org' });
    expect(await setStatus(id, 'deprecated', 'user1')).toEqual({ success: true, itemId: id });
    expect(await status(id)).toBe('deprecated');
    expect((await setStatus(id, 'deprecated', 'publisher1')).error.code).toBe(403);
    expect((await setStatus(id, '', 'admin', { clearEmptyFields: 'true' })).success).toBe(true);
    expect(await status(id)).toBeNull();
    expect((await eventsFor(svc, id)).map((e) => e.properties)).toEqual([{ contentStatus: 'deprecated' }, { contentStatus: '' }]);
  });

  it('org_authoritative: administrators with portal:admin:updateItems only, and only they remove it', async () => {
    const id = await insertItem(svc, 'user1', { access: 'public' });
    expect((await setStatus(id, 'org_authoritative', 'user1')).error.code).toBe(403);
    expect((await setStatus(id, 'org_authoritative', 'partner_admin')).error.code).toBe(403);
    expect((await setStatus(id, 'org_authoritative', 'admin')).success).toBe(true);
    expect((await setStatus(id, '', 'user1', { clearEmptyFields: 'true' })).error.code).toBe(403);
    expect((await setStatus(id, 'deprecated', 'user1')).error.code).toBe(403);
    expect(await status(id)).toBe('org_authoritative');
    // Authoritative items are delete-protected.
    expect((await post(`content/users/user1/items/${id}/delete`, {}, 'user1')).error.code).toBe(400);
  });

  it('an empty status needs clearEmptyFields=true; an unknown status is refused', async () => {
    const id = await insertItem(svc, 'user1', { contentStatus: 'deprecated' });
    expect((await setStatus(id, '', 'user1')).error.details[0]).toMatch(/^'clearEmptyFields'/);
    expect((await setStatus(id, '', 'user1', { clearEmptyFields: 'false' })).error.details[0]).toMatch(/^'clearEmptyFields'/);
    expect(await status(id)).toBe('deprecated');
    expect((await setStatus(id, 'authoritative', 'admin')).error.details[0]).toMatch(/^'status'/);
  });

  it('public_authoritative: 400 CONT_0163 unless the organization is public and verified', async () => {
    const id = await insertItem(svc, 'user1', { access: 'public' });
    await setOrg({ access: 'private', isVerified: 'false' });
    expect((await setStatus(id, 'public_authoritative', 'admin')).error).toMatchObject({ code: 400, messageCode: 'CONT_0163' });
    await setOrg({ access: 'public' });
    expect((await setStatus(id, 'public_authoritative', 'admin')).error).toMatchObject({ code: 400, messageCode: 'CONT_0163' });
    await setOrg({ access: 'private', isVerified: 'true' });
    expect((await setStatus(id, 'public_authoritative', 'admin')).error).toMatchObject({ code: 400, messageCode: 'CONT_0163' });
    await setOrg({ access: 'public', isVerified: 'true' });
    expect((await setStatus(id, 'public_authoritative', 'admin')).success).toBe(true);
    expect(await status(id)).toBe('public_authoritative');
    await setOrg({ access: 'private', isVerified: 'false' });
  });

  it('replacedBy (local extra): a visible item, only with deprecated; stored, returned, recorded, cleared by a status change', async () => {
    const id = await insertItem(svc, 'user1', { access: 'org' });
    const next = await insertItem(svc, 'user1', { access: 'org' });
    const hidden = await insertItem(svc, 'publisher1', { access: 'private' });
    const item = async () => getJson(svc, `content/items/${id}`, {}, tokens.user1);
    // Refused: another status, the item itself, an item the caller cannot see, not an id; nothing changes.
    expect((await setStatus(id, 'org_authoritative', 'admin', { replacedBy: next })).error.details[0]).toMatch(/^'replacedBy'/);
    expect((await setStatus(id, 'deprecated', 'user1', { replacedBy: id })).error.details[0]).toMatch(/^'replacedBy'/);
    expect((await setStatus(id, 'deprecated', 'user1', { replacedBy: hidden })).error).toMatchObject({
      code: 400,
      details: [expect.stringMatching(/^'replacedBy'/)],
    });
    expect((await setStatus(id, 'deprecated', 'user1', { replacedBy: 'parks' })).error.details[0]).toMatch(/^'replacedBy'/);
    expect(await item()).toMatchObject({ contentStatus: null });
    expect((await item()).replacedBy).toBeUndefined();

    expect(await setStatus(id, 'deprecated', 'user1', { replacedBy: next })).toEqual({ success: true, itemId: id });
    expect(await item()).toMatchObject({ contentStatus: 'deprecated', replacedBy: next });
    const history = async () =>
      (
        await svc.db.query<{ data: Record<string, unknown> }>("SELECT data FROM events WHERE subject_id = $1 AND op = 'setContentStatus' ORDER BY seq", [id])
      ).map((e) => e.data);
    expect((await history()).at(-1)).toEqual({ before: { contentStatus: '' }, after: { contentStatus: 'deprecated', replacedBy: next } });
    // The documented call leaves no replacement behind: deprecated again without it, or the status removed.
    expect((await setStatus(id, 'deprecated', 'user1')).success).toBe(true);
    expect((await item()).replacedBy).toBeUndefined();
    expect((await history()).at(-1)).toEqual({ before: { contentStatus: 'deprecated', replacedBy: next }, after: { contentStatus: 'deprecated' } });
    expect((await setStatus(id, 'deprecated', 'user1', { replacedBy: next })).success).toBe(true);
    expect((await setStatus(id, 'null', 'user1')).success).toBe(true);
    expect(await item()).toMatchObject({ contentStatus: null });
    expect((await item()).replacedBy).toBeUndefined();
    // The webhook payload is the documented one.
    expect((await eventsFor(svc, id)).at(-1)?.properties).toEqual({ contentStatus: '' });
  });

  it('needs a signed-in caller holding a portal: privilege', async () => {
    const id = await insertItem(svc, 'user1', { access: 'public' });
    expect((await svc.post(`content/items/${id}/setContentStatus`, { status: 'deprecated' })).error.code).toBe(499);
  });
});

describe('verification and public sharing', () => {
  it('an organization becoming public and verified turns its org_authoritative items public_authoritative, and back', async () => {
    await setOrg({ access: 'public', isVerified: 'false' });
    const a = await insertItem(svc, 'user1', { access: 'public', contentStatus: 'org_authoritative' });
    const b = await insertItem(svc, 'publisher1', { access: 'org', contentStatus: 'org_authoritative' });
    const other = await insertItem(svc, 'partner_admin', { access: 'public', contentStatus: 'org_authoritative' });
    expect((await setOrg({ isVerified: 'true' })).success).toBe(true);
    expect([await status(a), await status(b), await status(other)]).toEqual(['public_authoritative', 'public_authoritative', 'org_authoritative']);
    expect((await getJson(svc, `portals/${svc.orgId}`, {}, tokens.admin)).isVerified).toBe(true);
    expect((await eventsFor(svc, a)).at(-1)).toEqual({ operation: 'update', properties: { contentStatus: 'public_authoritative' } });
    await setOrg({ isVerified: 'false' });
    expect([await status(a), await status(b)]).toEqual(['org_authoritative', 'org_authoritative']);
    await setOrg({ access: 'private' });
  });

  it('only administrators change the verification', async () => {
    expect((await post(`portals/${svc.orgId}/update`, { isVerified: 'true' }, 'user1')).error.code).toBe(403);
    expect((await getJson(svc, `portals/${svc.orgId}`, {}, tokens.admin)).isVerified).toBe(false);
    expect((await post(`portals/${svc.orgId}/update`, { isVerified: 'maybe' }, 'admin')).error.details[0]).toMatch(/^'isVerified'/);
  });

  it('sharing an org_authoritative item publicly in a verified organization makes it public_authoritative; unsharing turns it back', async () => {
    await setOrg({ access: 'public', isVerified: 'true' });
    const id = await insertItem(svc, 'user1', { access: 'org' });
    expect((await setStatus(id, 'org_authoritative', 'admin')).success).toBe(true);
    await post(`content/users/user1/items/${id}/share`, { everyone: 'true' }, 'user1');
    expect(await status(id)).toBe('public_authoritative');
    await post(`content/users/user1/items/${id}/share`, { everyone: 'false', org: 'true' }, 'user1');
    expect(await status(id)).toBe('org_authoritative');
    await setOrg({ isVerified: 'false' });
    await post(`content/users/user1/items/${id}/share`, { everyone: 'true' }, 'user1');
    expect(await status(id)).toBe('org_authoritative');
    await setOrg({ access: 'private' });
  });
});
