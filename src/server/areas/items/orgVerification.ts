/**
 * Authoritative items follow their organization's verification (spec §4.7, facts §3.6): a module of
 * its own because portals/service calls it inside its update, while status.ts reads the
 * organization through portals/service (one module for both would be an import circle).
 */
import type { Caller } from '../../http/auth.ts';
import type { Queryable } from '../../store/db.ts';
import { recordEvent } from '../../store/events.ts';
import { moveOrgContentStatus } from './repo/contentStatus.ts';

/**
 * The organization's verification changed (portals/<orgId>/update isVerified), inside its
 * transaction: verified and public → every org_authoritative item becomes public_authoritative;
 * no longer verified → public_authoritative items go back to org_authoritative. One update event per item.
 */
export async function applyOrgVerification(q: Queryable, orgId: string, verifiedPublic: boolean, actorCaller: Caller, now: number): Promise<number> {
  const [from, to] = verifiedPublic ? (['org_authoritative', 'public_authoritative'] as const) : (['public_authoritative', 'org_authoritative'] as const);
  const rows = await moveOrgContentStatus(q, orgId, from, to, now);
  for (const r of rows) {
    await recordEvent(q, {
      orgId,
      source: 'item',
      operation: 'update',
      subjectId: r.id,
      actor: { userId: actorCaller.userId, username: actorCaller.username },
      properties: { contentStatus: to },
      when: now,
      history: { op: 'setContentStatus', data: { before: { contentStatus: from }, after: { contentStatus: to }, reason: 'organization verification' } },
    });
  }
  return rows.length;
}
