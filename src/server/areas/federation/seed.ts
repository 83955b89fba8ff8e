/**
 * Demo data: a server federated with the first (demo) organization, two feature services and a
 * geoprocessing service, and a few service webhooks, so listServiceWebhooks has real rows.
 * Runs once, right after the demo members exist (bootstrap's first start only).
 */
import type { PortalContext } from '../../context.ts';
import { alnumId, hexId } from '../../store/ids.ts';
import * as repo from './repo.ts';
import { defaultSchedule } from './service.ts';

const RECEIVER = 'https://hooks.example.com';

export async function seedFederation(ctx: PortalContext, orgId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    const users = await repo.membersOf(q, orgId);
    const idOf = (name: string) => users.find((u) => u.username === name)?.id;
    const admin = users.find((u) => u.username === ctx.config.adminUsername);
    const publisher = idOf('publisher1');
    if (!admin || !publisher) return;
    const serverId = alnumId(16);
    await repo.insertServer(q, {
      id: serverId,
      org_id: orgId,
      name: 'GIS Server (demo)',
      url: 'https://gis.example.com/server',
      admin_url: 'https://gis.example.com/server/admin',
      server_role: 'HOSTING_SERVER',
      created: now,
    });
    const services = [
      { folder: 'Hosted', name: 'Parcels', type: 'FeatureServer' as const, owner: publisher },
      { folder: 'Hosted', name: 'Inspections', type: 'FeatureServer' as const, owner: publisher },
      { folder: '', name: 'BufferTool', type: 'GPServer' as const, owner: admin.id },
    ];
    for (const s of services) {
      await repo.insertService(q, {
        server_id: serverId,
        folder_name: s.folder,
        service_name: s.name,
        service_type: s.type,
        item_id: null,
        owner_id: s.owner,
        created: now,
      });
    }
    const hooks = [
      {
        s: services[0],
        name: 'Parcel edits',
        changeTypes: ['FeaturesCreated', 'FeaturesUpdated', 'FeaturesDeleted'],
        owner: 'publisher1',
        key: 'parcelsKey2026',
        active: true,
      },
      { s: services[1], name: 'New inspections', changeTypes: ['FeaturesCreated', 'AttachmentsCreated'], owner: 'publisher1', key: '', active: false },
      { s: services[2], name: 'Buffer job finished', changeTypes: ['*'], owner: admin.username, key: 'bufferKey', active: true },
    ];
    for (const [i, h] of hooks.entries()) {
      const created = now + i;
      await repo.insertServiceWebhook(q, {
        id: hexId(),
        server_id: serverId,
        folder_name: h.s.folder,
        service_name: h.s.name,
        service_type: h.s.type,
        name: h.name,
        change_types: h.changeTypes,
        signature_key: h.key,
        hook_url: `${RECEIVER}/${h.s.name.toLowerCase()}`,
        active: h.active,
        content_type: 'application/json',
        schedule_info: h.s.type === 'GPServer' ? {} : defaultSchedule(created),
        payload_format: 'json',
        owner: h.owner,
        modified_id: h.owner,
        created,
        modified: created,
      });
    }
  });
}
