/** The service proxy's rate limit: hits counted per item in fixed windows. */
import type { PortalContext } from '../../context.ts';
import { deleteEarlierProxyHits, incrementProxyHits } from './repo.ts';

/** Counts one hit in the current window; answers the count including this hit. */
export async function countHit(ctx: PortalContext, itemId: string, intervalSeconds: number): Promise<number> {
  const span = intervalSeconds * 1000;
  const window = Math.floor(ctx.clock.now() / span) * span;
  const hits = await incrementProxyHits(ctx.db, itemId, window);
  // The first hit of a window is the moment the earlier windows stop mattering.
  if (hits === 1) await deleteEarlierProxyHits(ctx.db, itemId, window);
  return hits;
}

/** The retention sweep of rate-limit windows that have ended. */
export { deleteEndedProxyHitWindows } from './repo.ts';
