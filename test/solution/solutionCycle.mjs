/**
 * Esri's solution.js 1.7.0 against the real local portal (a fresh embedded database): a Solution
 * item made from a group (createSolution), deployed into the same organization and twice into the
 * Partner Organization (deploySolution), and a deployment removed (deleteSolution). Run by
 * `npm run test:solution` (node:test through tsx); the packages are pinned in ./package.json.
 */
import './browserShims.mjs';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { UserSession } from '@esri/arcgis-rest-auth';
import { deleteSolution } from '@esri/solution-common';
import { createSolution } from '@esri/solution-creator';
import { deploySolution } from '@esri/solution-deployer';
import { DEMO_PASSWORD, startService } from '../support/service.ts';
import { buildSourceGroup, call } from './fixture.mjs';
import { dropped, leaveOutPlaceholderIds } from './idRule.mjs';
import { portalReader } from './portal.mjs';
import { checkDeployment } from './checks.mjs';

let service, restUrl, portal, src, solutionId, partnerDeployment, sameOrgDeployment;
const tokens = {};
const sessions = {};

before(async () => {
  service = await startService();
  restUrl = await service.listen();
  portal = portalReader(restUrl);
  for (const username of ['publisher1', 'partner_admin']) {
    tokens[username] = await service.tokenFor(username);
    // Signed in as solution.js's callers are: UserSession asks generateToken itself.
    sessions[username] = new UserSession({ username, password: DEMO_PASSWORD, portal: restUrl });
  }
  src = await buildSourceGroup(restUrl, 'publisher1', tokens.publisher1);
});

after(() => service?.close());

/** deleteSolution as `username` on the deployed Solution `id`: it and `items` gone, and the folder it made with nothing left in it. */
async function expectDeleted(username, id, items) {
  const token = tokens[username];
  const deployed = await portal.json(`content/items/${id}`, token);
  const [deletedSummary, failedSummary] = await deleteSolution(id, sessions[username]);
  assert.deepEqual(deletedSummary.items.map((i) => i.id).sort(), Object.values(items).sort());
  assert.deepEqual(failedSummary.items, []);
  for (const itemId of [id, ...Object.values(items)]) {
    const answer = await portal.json(`content/items/${itemId}`, token);
    assert.equal(answer.error?.messageCode, 'CONT_0001', `${itemId}: ${JSON.stringify(answer)}`);
  }
  // Empty once the app's code attachment (solution.js makes one per Web AppBuilder app) went with the app.
  const left = await portal.json('search', token, { q: `owner:${username} AND ownerfolder:${deployed.ownerFolder}` });
  assert.equal(left.total, 0, JSON.stringify(left.results));
  const folders = (await portal.json(`content/users/${username}`, token)).folders.map((f) => f.id);
  assert.ok(!folders.includes(deployed.ownerFolder), 'the deployment folder is removed');
}

describe('solution.js 1.7.0 against the local portal', () => {
  test('the placeholder id solution.js sends to addItem is refused by the documented rule', async () => {
    const add = (id) => call(restUrl, 'content/users/publisher1/addItem', { title: 'x', type: 'CSV', text: 'a,b', id }, tokens.publisher1);
    await assert.rejects(add(`{{${src.csvId}.itemId}}`), /"code":400.*'id' must be 32 letters and digits/);
    await assert.rejects(add(src.csvId), /already exists/);
  });

  test('createSolution makes a Solution item holding the group as templates, files and thumbnails', async () => {
    solutionId = await createSolution(src.groupId, sessions.publisher1, sessions.publisher1);
    const item = await portal.json(`content/items/${solutionId}`, tokens.publisher1);
    assert.equal(item.type, 'Solution');
    assert.ok(item.typeKeywords.includes('Template'), item.typeKeywords.join());
    const data = await portal.json(`content/items/${solutionId}/data`, tokens.publisher1);
    assert.deepEqual(data.templates.map((t) => t.itemId).sort(), [src.csvId, src.mapId, src.appId].sort());
    const map = data.templates.find((t) => t.itemId === src.mapId);
    assert.equal(map.data.operationalLayers[0].itemId, `{{${src.csvId}.itemId}}`);
    assert.deepEqual(map.dependencies, [src.csvId]);
    const resources = (await portal.json(`content/items/${solutionId}/resources`, tokens.publisher1)).resources.map((r) => r.resource);
    // The CSV's file is kept zipped (…_info_dataz), the thumbnails and resources under their item's id.
    const expected = [
      `${src.csvId}_info_dataz/cities.csv.zip`,
      `${src.csvId}_info_thumbnail/csv.png`,
      `${src.csvId}/config/legend.json`,
      `${src.mapId}_info_thumbnail/map.png`,
      `${src.appId}_info_thumbnail/app.png`,
      `${src.appId}/config/legend.json`,
    ];
    assert.deepEqual(resources.sort(), expected.sort());
  });

  test('deploySolution as solution.js sends it fails at the placeholder id and rolls back, leaving nothing', async () => {
    const before = await portal.json('content/users/publisher1', tokens.publisher1);
    await assert.rejects(deploySolution(solutionId, sessions.publisher1), (err) => err.success === false && err.itemIds.length === 1);
    const after = await portal.json('content/users/publisher1', tokens.publisher1);
    assert.deepEqual(after.folders, before.folders);
    assert.deepEqual(after.items.map((i) => i.id).sort(), before.items.map((i) => i.id).sort());
    // From here on, solution.js's addItem requests go without that placeholder (idRule.mjs).
    leaveOutPlaceholderIds();
  });

  test('deploySolution into the same organization rewrites ids and carries files, thumbnails and resources', async () => {
    const deployedId = await deploySolution(solutionId, sessions.publisher1);
    sameOrgDeployment = { id: deployedId };
    sameOrgDeployment.items = await checkDeployment({ portal, restUrl, src, deployedId, token: tokens.publisher1, owner: 'publisher1', orgId: service.orgId });
    assert.deepEqual(dropped.sort(), [src.csvId, src.mapId, src.appId].map((id) => `{{${id}.itemId}}`).sort());
  });

  test('deploySolution into the Partner Organization works twice, each a copy of its own, apart from the source organization', async () => {
    // The partner reads the Solution item only once it is shared with everyone.
    await assert.rejects(deploySolution(solutionId, sessions.partner_admin), /does not exist or is inaccessible/);
    await call(restUrl, `content/users/publisher1/items/${solutionId}/share`, { everyone: 'true' }, tokens.publisher1);
    const first = await deploySolution(solutionId, sessions.partner_admin);
    const second = await deploySolution(solutionId, sessions.partner_admin);
    const check = (deployedId) =>
      checkDeployment({ portal, restUrl, src, deployedId, token: tokens.partner_admin, owner: 'partner_admin', orgId: service.partnerOrgId });
    const [a, b] = [await check(first), await check(second)];
    for (const sourceId of Object.keys(a)) assert.notEqual(a[sourceId], b[sourceId]);
    // Private in the partner's organization: the source organization's members do not see them.
    const seen = await portal.json(`content/items/${a[src.csvId]}`, tokens.publisher1);
    assert.equal(seen.error?.code, 400, JSON.stringify(seen));
    // And the partner never sees the source items, which stayed in the group only.
    assert.equal((await portal.json(`content/items/${src.csvId}`, tokens.partner_admin)).error?.code, 400);
    partnerDeployment = { id: second, items: b, other: a };
  });

  test('deleteSolution removes a deployment, its items and its folder, leaving the source and other deployments', async () => {
    const { id, items, other } = partnerDeployment;
    await expectDeleted('partner_admin', id, items);
    for (const otherId of Object.values(other)) {
      assert.equal((await portal.json(`content/items/${otherId}`, tokens.partner_admin)).id, otherId, 'the first deployment stays');
    }
    // In the source's own organization too: the source group's items stay.
    await expectDeleted('publisher1', sameOrgDeployment.id, sameOrgDeployment.items);
    for (const sourceId of [solutionId, src.csvId, src.mapId, src.appId]) {
      assert.equal((await portal.json(`content/items/${sourceId}`, tokens.publisher1)).id, sourceId);
    }
  });

  test('a missing resource of the Solution item is an error no client mistakes for content', async () => {
    const res = await portal.bytes(`content/items/${solutionId}/resources/no-such-file.csv`, tokens.publisher1);
    const body = JSON.parse(new TextDecoder().decode(res.bytes));
    assert.equal(body.error?.code, 404);
    assert.ok(!res.type.startsWith('text/csv'), res.type);
  });
});
