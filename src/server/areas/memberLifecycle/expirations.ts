/**
 * Setting and clearing members' expirations (local extras): one result per name, as
 * updateUserLicenseType answers. The rules of any action on another member's account apply
 * (memberToActOn: not one's own, an administrator only by a default administrator).
 */
import type { ExpirationResult, UpcomingExpiration } from '../../../shared/contract/memberLifecycle.ts';
import { pageEnvelope, type Paging } from '../../../shared/contract/wire.ts';
import type { PortalContext } from '../../context.ts';
import { raise } from '../../core/signals.ts';
import { actorOf, type Caller } from '../../http/auth.ts';
import { ApiError, badParam } from '../../http/errors.ts';
import { recordEvent } from '../../store/events.ts';
import { memberToActOn } from '../users/service.ts';
import { warningMsOf } from './due.ts';
import { DAY_MS, expirationOf, setExpiration, upcomingExpirations } from './repo.ts';

export async function setExpirations(ctx: PortalContext, caller: Caller, usernames: string[], expiration: number | null) {
  const now = ctx.clock.now();
  if (expiration !== null && expiration <= now) throw badParam('expiration', 'must be in the future', 'Unable to set the expiration.');
  const results = await ctx.db.tx(async (q) => {
    const out: ExpirationResult[] = [];
    for (const username of usernames) {
      try {
        const { target } = await memberToActOn(q, caller, { username }, expiration === null ? 'clear the expiration of' : 'set an expiration on');
        const was = await expirationOf(q, target.id);
        if (was === expiration) {
          out.push({ username: target.username, status: true });
          continue;
        }
        await setExpiration(q, target.id, expiration);
        await recordEvent(q, {
          orgId: target.org_id,
          source: 'user',
          operation: 'update',
          subjectId: target.username,
          actor: actorOf(caller),
          properties: { expiration },
          when: now,
          history: { op: 'updateUser', title: target.full_name || target.username, data: { before: { expiration: was }, after: { expiration } } },
        });
        out.push({ username: target.username, status: true });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        out.push({ username, status: false, error: { code: err.code, message: String(err.details[0] ?? err.message) } });
      }
    }
    return out;
  });
  raise('memberLifecycleChanged');
  return { results };
}

export async function listExpirations(ctx: PortalContext, orgId: string, paging: Paging, usernames?: string[]) {
  const { total, rows } = await upcomingExpirations(ctx.db, orgId, usernames, paging.start - 1, paging.num);
  const expirations: UpcomingExpiration[] = rows.map((r) => ({
    username: r.username,
    fullName: r.full_name,
    expiration: r.expiration,
    warned: r.expiration_warned !== null,
  }));
  return { ...pageEnvelope(total, paging, rows.length), warningDays: warningMsOf(ctx) / DAY_MS, expirations };
}
