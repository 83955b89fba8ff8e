/**
 * What travels with copied items, against the real local portal: relationships among the copies,
 * group sharing (a group created in the target and tagged `source-<id>`, found again on the next
 * run), access levels narrowed to what the target member may share to, and a copy resumed after the
 * tab closed or the connection was lost, without duplicating what the first run made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, request } from '../../api/index.ts';
import { startClientService, type ClientTestService } from '../../test/service.ts';
import { applyPlan, CopyFailed, undoCopy } from './apply.ts';
import { connectAs } from './copy.test-support.ts';
import { planCopy, sourceKeyword } from './plan.ts';
import { addItem, getItem, searchItems, type PortalConnection } from './portal.ts';
import { copyKey, doneCount, emptyProgress, forgetCopy, keepCopy, saveCopy, unfinishedCopies, type CopyProgress } from './progress.ts';
import { addRelationshipIn, findGroupCopy, forwardRelationships, shareIn, sharingRights, sourceGroupTag, whyNotShareableTo } from './sharing.ts';
import { accessFor } from './travel.ts';

let svc: ClientTestService;
let source: PortalConnection;
let target: PortalConnection;
let mapId: string;
let collectionId: string;
let groupId: string;
let tag: string;

beforeAll(async () => {
  svc = await startClientService();
  source = await connectAs(svc, 'admin', svc.orgId);
  target = await connectAs(svc, 'partner_admin', svc.partnerOrgId);
  tag = Date.now().toString(36);
  collectionId = await addItem(source, { title: `Stops ${tag}`, type: 'Feature Collection', tags: ['t'], text: JSON.stringify({ layers: [] }) });
  mapId = await addItem(source, { title: `Stops map ${tag}`, type: 'Web Map', tags: ['t'], text: JSON.stringify({ operationalLayers: [], version: '2.31' }) });
  await addRelationshipIn(source, mapId, collectionId, 'Map2FeatureCollection');
  const created = await request<{ group: { id: string } }>(
    'community/createGroup',
    { title: `Field crew ${tag}`, access: 'org', tags: 'crew' },
    { portalUrl: source.portalUrl, token: source.token, method: 'POST' },
  );
  groupId = created.group.id;
  await shareIn(source, 'admin', mapId, { everyone: false, org: true, groups: [groupId] });
});
afterAll(() => svc?.close());

const items = () => Promise.all([mapId, collectionId].map((id) => getItem(source, id)));

describe('relationships and sharing', () => {
  it('plans the relationship, the group to create and the access; applies them; a second run uses the group it made', async () => {
    const plan = await planCopy(source, target, await items());
    const map = plan.steps.find((s) => s.source.id === mapId)!;
    expect(map.relationships).toEqual([{ type: 'Map2FeatureCollection', destinationId: collectionId, destinationTitle: `Stops ${tag}` }]);
    expect(map.access).toEqual({ source: 'org', copied: 'org' });
    expect(map.groups).toEqual([groupId]);
    expect(plan.groups).toEqual([expect.objectContaining({ action: 'create', access: 'org', source: expect.objectContaining({ id: groupId }) })]);

    const result = await applyPlan(plan, source, target);
    expect(result.createdGroups).toHaveLength(1);
    const newMap = result.items.find((i) => i.sourceId === mapId)!.targetId;
    const newCollection = result.items.find((i) => i.sourceId === collectionId)!.targetId;
    expect(await forwardRelationships(target, { id: newMap, type: 'Web Map' })).toEqual([{ type: 'Map2FeatureCollection', destinationId: newCollection }]);
    const group = await findGroupCopy(target, groupId);
    expect(group).toMatchObject({ id: result.createdGroups[0], title: `Field crew ${tag}`, access: 'org' });
    expect(group!.tags).toContain(sourceGroupTag(groupId));
    expect((await getItem(target, newMap)).access).toBe('org');
    const inGroup = await searchItems(target, `group:${group!.id}`);
    expect(inGroup.map((i) => i.id)).toEqual([newMap]);

    const again = await planCopy(source, target, await items());
    expect(again.groups).toEqual([expect.objectContaining({ action: 'use', existing: expect.objectContaining({ id: group!.id }) })]);
    const second = await applyPlan(again, source, target);
    expect(second.created).toEqual([]);
    expect(second.createdGroups).toEqual([]);
    expect(await forwardRelationships(target, { id: newMap, type: 'Web Map' })).toHaveLength(1);

    expect(await undoCopy(result, target)).toEqual([]);
    expect(await findGroupCopy(target, groupId)).toBeUndefined();
  });

  it('narrows access to what the target member may share to, and says why', async () => {
    const viewer = await connectAs(svc, 'viewer1', svc.orgId);
    const rights = await sharingRights(viewer);
    expect(rights).toMatchObject({ org: false, public: false, anyGroup: false });
    expect(accessFor('public', rights)).toEqual({ source: 'public', copied: 'private', narrowed: expect.stringMatching(/everyone/) });
    expect(accessFor('public', { org: true, public: false })).toMatchObject({ copied: 'org' });
    expect(accessFor('shared', { org: true, public: true })).toEqual({ source: 'shared', copied: 'private' });
    expect(await sharingRights(target)).toMatchObject({ org: true, public: true, anyGroup: true });
    await expect(sharingRights({ ...target, token: 'nope' })).rejects.toMatchObject({ code: 498 });
  });
});

const post = <T>(c: PortalConnection, path: string, params: Record<string, string>) =>
  request<T>(path, params, { portalUrl: c.portalUrl, token: c.token, method: 'POST' });

describe('a group in the target the target member may not share to', () => {
  it('is skipped with the reason in the plan and the result, and the rest of the copy goes on', async () => {
    // From the partner organization to publisher1 (not an administrator) in the demo organization,
    // where the demo admin already made the group's copy and publisher1 is not in it.
    const partner = await connectAs(svc, 'partner_admin', svc.partnerOrgId);
    const publisher = await connectAs(svc, 'publisher1', svc.orgId);
    const crew = (await post<{ group: { id: string } }>(partner, 'community/createGroup', { title: `Partner crew ${tag}`, access: 'org', tags: 'crew' })).group
      .id;
    const itemId = await addItem(partner, { title: `Partner stops ${tag}`, type: 'Feature Collection', tags: ['t'], text: JSON.stringify({ layers: [] }) });
    await shareIn(partner, 'partner_admin', itemId, { everyone: false, org: true, groups: [crew] });
    const title = `Crew copy ${tag}`;
    const there = (await post<{ group: { id: string } }>(source, 'community/createGroup', { title, access: 'org', tags: sourceGroupTag(crew) })).group.id;
    const reason = `You are not a member of group ${title} in the target — the copies will not be shared to it.`;

    const plan = await planCopy(partner, publisher, [await getItem(partner, itemId)]);
    expect(plan.groups).toEqual([expect.objectContaining({ action: 'skip', existing: expect.objectContaining({ id: there }), reason })]);
    const result = await applyPlan(plan, partner, publisher);
    expect(result.items).toHaveLength(1);
    expect(result.skippedGroups).toEqual([{ id: there, title, reason }]);
    const copyId = result.items[0].targetId;
    expect((await getItem(publisher, copyId)).access).toBe('org');
    expect(await searchItems(source, `group:${there}`)).toEqual([]);
    expect(await undoCopy(result, publisher)).toEqual([]);

    // A plan made while publisher1 could share there: the target's refusal is noted the same way, not a failure.
    const stale = { ...plan, groups: plan.groups.map((g) => ({ ...g, action: 'use' as const, reason: undefined })) };
    const again = await applyPlan(stale, partner, publisher);
    expect(again.skippedGroups).toEqual([
      { id: there, title, reason: `The target did not let you share to group ${title} — the copies were not shared to it.` },
    ]);
    expect(await undoCopy(again, publisher)).toEqual([]);

    // Once publisher1 is a member, the group is used.
    await post(source, `community/groups/${there}/addUsers`, { users: 'publisher1' });
    const joined = await planCopy(partner, publisher, [await getItem(partner, itemId)]);
    expect(joined.groups).toEqual([expect.objectContaining({ action: 'use', existing: expect.objectContaining({ id: there }) })]);
    const shared = await applyPlan(joined, partner, publisher);
    expect(shared.skippedGroups).toEqual([]);
    expect((await searchItems(source, `group:${there}`)).map((i) => i.id)).toEqual([shared.items[0].targetId]);
    expect(await undoCopy(shared, publisher)).toEqual([]);
  });

  it('says why for a view-only group the member does not manage; an administrator may share to any group', () => {
    const group = { id: 'G1', title: 'Notices', access: 'org' as const, isViewOnly: true };
    expect(whyNotShareableTo(group, { anyGroup: false, memberOf: { g1: 'member' } })).toMatch(/Notices in the target is view-only/);
    expect(whyNotShareableTo(group, { anyGroup: false, memberOf: { g1: 'admin' } })).toBeUndefined();
    expect(whyNotShareableTo({ ...group, isViewOnly: false }, { anyGroup: false, memberOf: { g1: 'member' } })).toBeUndefined();
    expect(whyNotShareableTo(group, { anyGroup: true, memberOf: {} })).toBeUndefined();
  });
});

describe('resuming', () => {
  it('after the tab closed: items already copied are not copied again', async () => {
    const plan = await planCopy(source, target, await items());
    let kept: CopyProgress = emptyProgress();
    // Throwing from the progress callback as the second item starts stands for the tab closing there: nothing runs after it, nothing is rolled back.
    const closed = await applyPlan(plan, source, target, {
      onSave: (p) => (kept = structuredClone(p)),
      onProgress: (_, state) => {
        if (state === 'running' && Object.keys(kept.items).length) throw new Error('tab closed');
      },
    }).catch((e: unknown) => e);
    expect((closed as Error).message).toBe('tab closed');
    expect(Object.values(kept.items).map((i) => i.step)).toEqual(['done']);
    const first = plan.steps[0].source.id;

    const resumed = await applyPlan(plan, source, target, { progress: kept });
    expect(resumed.items.map((i) => i.action)).toEqual(['create', 'create']);
    expect(resumed.created).toHaveLength(2);
    expect(await searchItems(target, `typekeywords:${sourceKeyword(first)}`)).toHaveLength(1);
    expect(await forwardRelationships(target, { id: resumed.items.find((i) => i.sourceId === mapId)!.targetId, type: 'Web Map' })).toHaveLength(1);
    expect(await undoCopy(resumed, target)).toEqual([]);
  });

  it('after a lost connection: what the rollback could not remove is kept in the progress, and the resumed run finishes with it', async () => {
    const plan = await planCopy(source, target, await items());
    const lossy = { ...target };
    let kept: CopyProgress = emptyProgress();
    const err = await applyPlan(plan, source, lossy, {
      onSave: (p) => (kept = structuredClone(p)),
      onProgress: (_, state) => {
        // From the second item on, every request to the target fails as if the network were gone.
        if (state === 'running' && Object.keys(kept.items).length) lossy.token = 'gone';
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CopyFailed);
    expect(((err as CopyFailed).cause as ApiError).code).toBe(498);
    const left = (err as CopyFailed).leftBehind;
    expect(left.length).toBeGreaterThanOrEqual(1);
    const made = [...Object.values(kept.items).filter((i) => i.created), ...Object.values(kept.groups)].map((x) => x.targetId);
    expect(made.sort()).toEqual([...left].sort());

    const resumed = await applyPlan(plan, source, target, { progress: kept });
    expect(resumed.items).toHaveLength(2);
    for (const s of plan.steps) expect(await searchItems(target, `typekeywords:${sourceKeyword(s.source.id)}`)).toHaveLength(1);
    expect(await undoCopy(resumed, target)).toEqual([]);
  });

  it('keeps the plan and progress in the browser by source and target, without tokens', async () => {
    const plan = await planCopy(source, target, await items());
    const progress = emptyProgress();
    progress.items[mapId] = { targetId: 'x'.repeat(32), owner: 'partner_admin', created: true, step: 'done' };
    saveCopy(source, target, plan, progress);
    const [stored] = unfinishedCopies(source);
    expect(stored.key).toBe(copyKey(source, target));
    expect(stored.target).toEqual({ portalUrl: target.portalUrl, username: 'partner_admin', orgId: svc.partnerOrgId, label: 'partner_admin' });
    expect(JSON.stringify(stored)).not.toContain(target.token);
    expect(doneCount(stored)).toBe(1);
    expect(unfinishedCopies(target)).toEqual([]);
    forgetCopy(stored.key);
    expect(unfinishedCopies(source)).toEqual([]);
  });

  it("keeps each step's progress as a small entry of its own, not the whole plan again", async () => {
    const plan = await planCopy(source, target, await items());
    const progress = emptyProgress();
    const onSave = keepCopy(source, target, plan, progress);
    // Marked, the plan's record shows whether a step writes it again.
    const key = copyKey(source, target);
    localStorage.setItem(key, JSON.stringify({ ...JSON.parse(localStorage.getItem(key)!), savedAt: 1 }));
    progress.items[mapId.toLowerCase()] = { targetId: 'y'.repeat(32), owner: 'partner_admin', created: true, step: 'written' };
    onSave(progress, mapId.toLowerCase());
    expect(JSON.parse(localStorage.getItem(key)!).savedAt).toBe(1);
    const entries = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)!).filter((k) => k !== key);
    const entry = entries.map((k) => localStorage.getItem(k)!).find((v) => v.includes('y'.repeat(32)));
    expect(entry!.length).toBeLessThan(200);
    const [stored] = unfinishedCopies(source);
    expect(stored.progress.items).toEqual({ [mapId.toLowerCase()]: expect.objectContaining({ step: 'written' }) });
    expect(stored.plan.steps).toHaveLength(2);
    forgetCopy(stored.key);
    expect(localStorage.length).toBe(0);

    // A copy kept whole by the console before still resumes.
    localStorage.setItem(stored.key, JSON.stringify({ ...stored, progress: { ...emptyProgress(), relationshipsDone: true } }));
    expect(unfinishedCopies(source)[0].progress.relationshipsDone).toBe(true);
    forgetCopy(stored.key);
  });
});
