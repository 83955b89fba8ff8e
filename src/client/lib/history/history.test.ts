import { describe, expect, it } from 'vitest';
import type { HistoryEvent } from '../../../shared/contract/history.ts';
import { changeRows, describeEvent, operationOf } from './describe.ts';
import { changedSince, planUndo, planUndoNamed } from './undo.ts';

let seq = 0;
/** An event as a portal without local extras sends it (no eventId/operation), so inference is tested too. */
function ev(partial: Partial<HistoryEvent> & Pick<HistoryEvent, 'id' | 'idType' | 'action'>): HistoryEvent {
  seq += 1;
  return { actor: 'admin1', created: 1_700_000_000_000 + seq * 1000, orgId: 'org1', data: {}, ...partial } as HistoryEvent;
}

describe('describeEvent', () => {
  it('says who shared what with whom', () => {
    const e = ev({
      id: 'item1',
      idType: 'i',
      action: 'share',
      actor: 'publisher1',
      title: 'Parcels',
      data: { before: { access: 'private', groups: [] }, after: { access: 'org', groups: [] } },
    });
    expect(operationOf(e)).toBe('shareItem');
    expect(describeEvent(e)).toBe("publisher1 shared 'Parcels' with the organization");
  });

  it('names both owners and the folder of a transfer', () => {
    const e = ev({
      id: 'item2',
      idType: 'i',
      action: 'update',
      title: 'Roads',
      data: { before: { owner: 'alice', ownerFolder: 'f1', folderName: 'Field' }, after: { owner: 'bob', ownerFolder: null, folderName: null } },
    });
    expect(operationOf(e)).toBe('reassignItem');
    expect(describeEvent(e)).toBe("admin1 transferred 'Roads' from alice to bob");
  });

  it('words a role change and a group batch', () => {
    expect(describeEvent(ev({ id: 'carol', idType: 'u', action: 'update', data: { before: { role: 'org_user' }, after: { role: 'org_admin' } } }))).toMatch(
      /^admin1 changed the role of carol from .+ to .+$/,
    );
    expect(describeEvent(ev({ id: 'g1', idType: 'g', action: 'addusers', title: 'Crews', data: { usernames: ['a', 'b', 'c', 'd', 'e'] } }))).toBe(
      "admin1 added a, b, c and 2 more to the group 'Crews'",
    );
  });

  it('lists before/after rows per field', () => {
    const e = ev({ id: 'item3', idType: 'i', action: 'update', data: { before: { contentStatus: null }, after: { contentStatus: 'deprecated' } } });
    expect(describeEvent({ ...e, title: 'Old' })).toBe("admin1 marked 'Old' as deprecated");
    expect(changeRows(e)).toEqual([{ field: 'contentStatus', label: 'content status', before: '—', after: 'deprecated' }]);
  });

  it('lists only the defaults that changed; set, change and clear read apart; ids fall back when no name is known', () => {
    const whole = { role: null, userLicenseType: null, groups: [], userType: null, apps: [], appBundles: [] };
    const set = ev({
      id: 'org1',
      idType: 'a',
      action: 'update',
      data: { before: whole, after: { ...whole, role: 'iAAAAAAAAAAAAAAA', userLicenseType: 'creatorUT', groups: ['g1', 'g2'] } },
    });
    expect(operationOf(set)).toBe('setUserDefaultSettings');
    expect(describeEvent(set, { group: (id) => (id === 'g1' ? 'Crews' : undefined) })).toBe(
      "admin1 changed the new-member defaults: set the role to 'Viewer'; set the user type to 'Creator'; added the groups 'Crews' and 'g2'",
    );
    const clear = ev({ id: 'org1', idType: 'a', action: 'update', data: { before: { ...whole, role: 'org_user', userType: 'both' }, after: whole } });
    expect(describeEvent(clear)).toBe("admin1 changed the new-member defaults: cleared the role (was 'User'); cleared the apps (was 'ArcGIS and Esri apps')");
    const change = ev({ id: 'org1', idType: 'a', action: 'update', data: { before: { ...whole, role: 'r9' }, after: { ...whole, role: 'org_publisher' } } });
    expect(describeEvent(change, { role: (id) => (id === 'r9' ? 'Field starters' : undefined) })).toBe(
      "admin1 changed the new-member defaults: changed the role from 'Field starters' to 'Publisher'",
    );
    expect(changeRows(change)).toEqual([{ field: 'role', label: 'role', before: 'r9', after: 'Publisher' }]);
  });

  it('names a removed participant by its organization, not by the collaboration', () => {
    const e = ev({
      id: 'c1',
      idType: 'cp',
      action: 'delete',
      title: 'Field data',
      data: { participantPortalId: 'p1', participantName: 'Partner Org', workspacesStopped: 1, collaborationOperation: 'removeParticipant' },
    });
    expect(describeEvent({ ...e, operation: 'removeParticipant' })).toBe("admin1 removed 'Partner Org' from the collaboration 'Field data'");
    // An older event without the name: the portal id, still not the collaboration's name.
    const old = { ...e, operation: 'removeParticipant' as const, data: { participantPortalId: 'p1' } };
    expect(describeEvent(old)).toBe("admin1 removed the portal p1 from the collaboration 'Field data'");
  });
});

describe('planUndo', () => {
  it('transfers an item back to its previous owner and folder', () => {
    const e = ev({
      id: 'item2',
      idType: 'i',
      action: 'update',
      title: 'Roads',
      data: { before: { owner: 'alice', ownerFolder: 'f1', folderName: 'Field' }, after: { owner: 'bob', ownerFolder: null, folderName: null } },
    });
    const plan = planUndo(e);
    expect(plan.undoable).toBe(true);
    if (plan.undoable) expect(plan.steps).toEqual([{ kind: 'reassign', itemId: 'item2', title: 'Roads', from: 'bob', to: 'alice', folderName: 'Field' }]);
  });

  it('gives a group back to its previous owner, and says the member it went to stays in it', () => {
    const e = ev({ id: 'g1', idType: 'g', action: 'update', title: 'Crews', data: { before: { owner: 'alice' }, after: { owner: 'bob' }, joined: 'bob' } });
    expect(operationOf(e)).toBe('reassignGroup');
    expect(describeEvent(e)).toBe("admin1 gave the group 'Crews' to bob");
    const plan = planUndo(e);
    if (!plan.undoable) throw new Error(plan.reason);
    expect(plan.steps).toEqual([{ kind: 'reassignGroup', groupId: 'g1', title: 'Crews', to: 'alice' }]);
    expect(plan.summary).toBe("Give the group 'Crews' back to alice.");
    expect(plan.note).toMatch(/^bob stays in the group as a member \(they joined it as its owner\)/);
    expect(planUndo(ev({ id: 'g1', idType: 'g', action: 'update', operation: 'reassignGroup', data: { after: { owner: 'bob' } } })).undoable).toBe(false);
  });

  it('puts privileges, sharing, status, role, defaults and webhook settings back', () => {
    const steps = (e: HistoryEvent) => {
      const p = planUndo(e);
      if (!p.undoable) throw new Error(p.reason);
      return p.steps;
    };
    expect(
      steps(ev({ id: 'r1', idType: 'r', action: 'update', title: 'Editors', data: { before: { privileges: ['a', 'b'] }, after: { privileges: ['a'] } } })),
    ).toEqual([{ kind: 'privileges', roleId: 'r1', title: 'Editors', privileges: ['a', 'b'] }]);
    expect(
      steps(
        ev({
          id: 'item1',
          idType: 'i',
          action: 'share',
          title: 'P',
          data: { before: { access: 'private', groups: ['g1'] }, after: { access: 'org', groups: ['g2'] } },
        }),
      ),
    ).toEqual([{ kind: 'share', itemId: 'item1', title: 'P', access: 'private', addGroups: ['g1'], removeGroups: ['g2'] }]);
    expect(
      steps(
        ev({
          id: 'item3',
          idType: 'i',
          action: 'update',
          title: 'O',
          data: { before: { contentStatus: 'org_authoritative' }, after: { contentStatus: 'deprecated' } },
        }),
      ),
    ).toEqual([{ kind: 'contentStatus', itemId: 'item3', title: 'O', status: 'org_authoritative' }]);
    expect(steps(ev({ id: 'carol', idType: 'u', action: 'update', data: { before: { role: 'org_user' }, after: { role: 'org_admin' } } }))).toEqual([
      { kind: 'userRole', username: 'carol', role: 'org_user' },
    ]);
    expect(
      steps(
        ev({
          id: 'org1',
          idType: 'a',
          action: 'update',
          data: { before: { role: 'org_viewer', groups: ['g1'], userLicenseType: null }, after: { role: 'org_user', groups: [] } },
        }),
      ),
    ).toEqual([{ kind: 'userDefaults', role: 'org_viewer', userLicenseType: null, groups: ['g1'], userType: null }]);
    expect(steps(ev({ id: 'org1', idType: 'w', action: 'update', data: { before: { notificationAttempts: 3 }, after: { notificationAttempts: 5 } } }))).toEqual(
      [{ kind: 'webhookSettings', settings: { notificationAttempts: 3 } }],
    );
    expect(steps(ev({ id: 'g1', idType: 'g', action: 'addusers', title: 'Crews', data: { usernames: ['a', 'b'] } }))).toEqual([
      { kind: 'removeGroupUsers', groupId: 'g1', title: 'Crews', usernames: ['a', 'b'] },
    ]);
  });

  it('enables a disabled account again, and disables an enabled one', () => {
    const disabled = planUndo(ev({ id: 'bob', idType: 'u', action: 'update', data: { before: { disabled: false }, after: { disabled: true } } }));
    expect(disabled).toMatchObject({
      undoable: true,
      steps: [{ kind: 'userDisabled', username: 'bob', disabled: false }],
      summary: 'Enable the account of bob again.',
    });
    const enabled = planUndo(ev({ id: 'bob', idType: 'u', action: 'update', data: { before: { disabled: true }, after: { disabled: false } } }));
    expect(enabled).toMatchObject({
      undoable: true,
      steps: [{ kind: 'userDisabled', username: 'bob', disabled: true }],
      summary: 'Disable the account of bob again.',
    });
  });

  it('gives the reason when there is no undo', () => {
    const del = planUndo(ev({ id: 'item9', idType: 'i', action: 'delete' }));
    expect(del.undoable).toBe(false);
    if (!del.undoable) expect(del.reason).toMatch(/cannot be brought back/);
    const signin = planUndo(ev({ id: 'bob', idType: 'u', action: 'login' }));
    if (!signin.undoable) expect(signin.reason).toBe('A sign-in changes nothing to undo.');
    else throw new Error('a sign-in must not be undoable');
    const noOwner = planUndo(ev({ id: 'i', idType: 'i', action: 'update', data: { before: {}, after: { owner: 'bob' } } }));
    expect(noOwner.undoable).toBe(false);
  });
});

describe('changedSince', () => {
  const reassign = ev({ id: 'item2', idType: 'i', action: 'update', data: { before: { owner: 'alice' }, after: { owner: 'bob' } } });
  it('is undefined when later events touched other fields', () => {
    const later = ev({ id: 'item2', idType: 'i', action: 'update', data: { before: { title: 'a' }, after: { title: 'b' } } });
    expect(changedSince(reassign, [reassign, later])).toBeUndefined();
  });
  it('flags a later change of the same field and a deletion', () => {
    const moved = ev({ id: 'item2', idType: 'i', action: 'update', data: { before: { ownerFolder: null }, after: { ownerFolder: 'f2' } } });
    expect(changedSince(reassign, [moved, reassign])?.kind).toBe('changed');
    const gone = ev({ id: 'item2', idType: 'i', action: 'delete' });
    expect(changedSince(reassign, [reassign, gone])).toMatchObject({ kind: 'gone', by: gone });
  });
  it('ignores events on other targets and earlier events', () => {
    const earlier = {
      ...ev({ id: 'item2', idType: 'i', action: 'update', data: { before: { owner: 'x' }, after: { owner: 'alice' } } }),
      created: reassign.created - 5000,
    };
    const other = ev({ id: 'item7', idType: 'i', action: 'delete' });
    expect(changedSince(reassign, [earlier, reassign, other])).toBeUndefined();
  });
});

describe('references pointed at a replacement (updateItem with replacedReferences)', () => {
  const OLD = '0123456789abcdef0123456789abcdef';
  const NEW = 'fedcba9876543210fedcba9876543210';
  const OLD_URL = 'https://127.0.0.1/arcgis/rest/services/Parks/FeatureServer';
  const NEW_URL = 'https://localhost/arcgis/rest/services/Parks2024/FeatureServer';
  const swapped = ev({
    id: 'map1',
    idType: 'i',
    action: 'update',
    actor: 'user1',
    title: 'City map',
    data: {
      before: {},
      after: {},
      dataChanged: true,
      replacedReferences: [
        { from: OLD, to: NEW },
        { from: OLD_URL, to: NEW_URL },
      ],
    },
  });
  const names = { item: (id: string) => ({ [OLD]: 'Parks', [NEW]: 'Parks 2024' })[id] };

  it('says which item was replaced with which, by name where known', () => {
    expect(operationOf(swapped)).toBe('updateItem');
    expect(describeEvent(swapped, names)).toBe("user1 replaced references to 'Parks' with 'Parks 2024' (and its service address) in 'City map'");
    expect(describeEvent(swapped)).toBe(`user1 replaced references to '${OLD}' with '${NEW}' (and its service address) in 'City map'`);
    const urlOnly = ev({ id: 'm', idType: 'i', action: 'update', actor: 'a', title: 'M', data: { replacedReferences: [{ from: OLD_URL, to: NEW_URL }] } });
    expect(describeEvent(urlOnly)).toBe(`a replaced references to ${OLD_URL} with ${NEW_URL} in 'M'`);
  });

  it('plans the reverse swaps, applied to the data as it is then', () => {
    const plan = planUndoNamed(swapped, names);
    if (!plan.undoable) throw new Error(plan.reason);
    expect(plan.steps).toEqual([
      {
        kind: 'replaceReferences',
        itemId: 'map1',
        title: 'City map',
        swaps: [
          { from: NEW, to: OLD },
          { from: NEW_URL, to: OLD_URL },
        ],
      },
    ]);
    expect(plan.summary).toBe("Point 'City map' back: replace the references to 'Parks 2024' with 'Parks' (and its service address).");
  });

  it('other item updates, and malformed swaps, stay not undoable with their reason', () => {
    const edit = planUndo(ev({ id: 'map1', idType: 'i', action: 'update', data: { before: { title: 'a' }, after: { title: 'b' }, dataChanged: true } }));
    expect(edit).toMatchObject({ undoable: false, reason: expect.stringMatching(/^History keeps only the changed fields/) });
    const malformed = planUndo(ev({ id: 'map1', idType: 'i', action: 'update', data: { replacedReferences: [{ from: OLD }] } }));
    expect(malformed.undoable).toBe(false);
    expect(planUndo(ev({ id: 'map1', idType: 'i', action: 'update', data: { replacedReferences: [] } })).undoable).toBe(false);
  });

  it('a deprecation naming its replacement: the replacement by name in details; undoing a later change names it again', () => {
    const deprecated = ev({
      id: OLD,
      idType: 'i',
      action: 'update',
      operation: 'setContentStatus',
      title: 'Parks',
      data: { before: { contentStatus: '' }, after: { contentStatus: 'deprecated', replacedBy: NEW } },
    });
    expect(changeRows(deprecated, names)).toContainEqual({ field: 'replacedBy', label: 'replaced by', before: '—', after: 'Parks 2024' });
    const cleared = ev({
      id: OLD,
      idType: 'i',
      action: 'update',
      operation: 'setContentStatus',
      title: 'Parks',
      data: { before: { contentStatus: 'deprecated', replacedBy: NEW }, after: { contentStatus: '' } },
    });
    const plan = planUndo(cleared);
    if (!plan.undoable) throw new Error(plan.reason);
    expect(plan.steps).toEqual([{ kind: 'contentStatus', itemId: OLD, title: 'Parks', status: 'deprecated', replacedBy: NEW }]);
    const plain = planUndo(deprecated);
    expect(plain.undoable && plain.steps).toEqual([{ kind: 'contentStatus', itemId: OLD, title: 'Parks', status: '' }]);
  });

  it('a later change of the data counts as "changed since"; a title edit does not', () => {
    const retitled = ev({ id: 'map1', idType: 'i', action: 'update', data: { before: { title: 'a' }, after: { title: 'b' } } });
    expect(changedSince(swapped, [swapped, retitled])).toBeUndefined();
    const edited = ev({ id: 'map1', idType: 'i', action: 'update', data: { before: {}, after: {}, dataChanged: true } });
    expect(changedSince(swapped, [swapped, edited])).toMatchObject({ kind: 'changed', by: edited });
  });
});
