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
import { copyKey, doneCount, emptyProgress, forgetCopy, saveCopy, unfinishedCopies, type CopyProgress } from './progress.ts';
import { addRelationshipIn, findGroupCopy, forwardRelationships, shareIn, sharingRights, sourceGroupTag } from './sharing.ts';
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
    expect(rights).toEqual({ org: false, public: false });
    expect(accessFor('public', rights)).toEqual({ source: 'public', copied: 'private', narrowed: expect.stringMatching(/everyone/) });
    expect(accessFor('public', { org: true, public: false })).toMatchObject({ copied: 'org' });
    expect(accessFor('shared', { org: true, public: true })).toEqual({ source: 'shared', copied: 'private' });
    expect(await sharingRights(target)).toEqual({ org: true, public: true });
    await expect(sharingRights({ ...target, token: 'nope' })).rejects.toMatchObject({ code: 498 });
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
});
