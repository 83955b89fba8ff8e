/**
 * First start on an empty database: the organization and its administrator, and — when DEMO_DATA
 * is on — the demo members and a partner organization. Later starts change nothing.
 */
import { seedDemoCollaboration } from '../areas/collaborations/seed.ts';
import { countOrgs, insertOrg, lockFirstStartSeeding } from '../areas/portals/service.ts';
import { insertBuiltInRoles } from '../areas/roles/service.ts';
import { createUser } from '../areas/users/service.ts';
import { DEMO_PASSWORD, type Config } from '../config.ts';
import type { PortalContext } from '../context.ts';
import { hashPassword } from '../core/passwords.ts';
import { readDemoHashes } from './demoHashes.ts';
import { alnumId } from '../store/ids.ts';
import { seedFederation } from '../areas/federation/seed.ts';
import { plan, seedAccountCount } from './plan.ts';

export interface BootstrapResult {
  created: boolean;
  orgIds: string[];
}

/**
 * The first-start accounts' password hashes, one per account (each with its own salt). With the
 * published demo password they were computed when the checkout was built (seed/demoHashes.ts);
 * otherwise main.ts starts this before opening a new embedded database so the hashing (worker
 * threads) overlaps the database's initialisation (main thread) and start-up stays short.
 */
export async function hashSeedPasswords(config: Config): Promise<string[]> {
  const count = seedAccountCount(config);
  const built = config.adminPassword === DEMO_PASSWORD ? await readDemoHashes(config.adminPassword, config.passwordLogN, count) : undefined;
  return built ?? Promise.all(Array.from({ length: count }, () => hashPassword(config.adminPassword, config.passwordLogN)));
}

export async function bootstrap(ctx: PortalContext, seedHashes?: Promise<string[]>): Promise<BootstrapResult> {
  const plans = plan(ctx.config);
  const now = ctx.clock.now();
  const orgIds = await ctx.db.tx(async (q) => {
    // Several processes may start together on one PostgreSQL: one of them seeds.
    await lockFirstStartSeeding(q);
    if ((await countOrgs(q)) > 0) return [];
    const ids: string[] = [];
    for (const [i, p] of plans.entries()) {
      const id = alnumId(16);
      // Distinct creation times keep "the first organization" well defined.
      await insertOrg(q, { id, name: p.name, urlKey: p.urlKey, now: now + i });
      await insertBuiltInRoles(q, id, now);
      ids.push(id);
    }
    return ids;
  });
  if (!orgIds.length) return { created: false, orgIds: [] };
  // Accounts are created in parallel: each password hash takes a few hundred milliseconds.
  const hashes = seedHashes ? await seedHashes : undefined;
  let next = 0;
  await Promise.all(
    plans.flatMap((p, i) =>
      p.members.map((m) =>
        createUser(ctx, null, orgIds[i], {
          passwordHash: hashes?.[next++],
          username: m.username,
          password: ctx.config.adminPassword,
          firstname: m.first,
          lastname: m.last,
          email: `${m.username}@${p.urlKey}.example.com`,
          role: m.role,
        }),
      ),
    ),
  );
  await seedDemoCollaboration(ctx, orgIds);
  if (ctx.config.demoData) await seedFederation(ctx, orgIds[0]);
  return { created: true, orgIds };
}
