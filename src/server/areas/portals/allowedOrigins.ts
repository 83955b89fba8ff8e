/**
 * The portal's allowed origins (CORS), read cheaply on every request: kept in memory, dropped when
 * an update in this process changes them, and read again after a few seconds anyway, because other
 * processes sharing the PostgreSQL database may have changed them.
 *
 * One host serves every organization of this portal, and a preflight carries no token, so the
 * list is the portal's primary organization's: the first one created, the one anonymous
 * `portals/self` describes (docs/configuration.md "CORS and allowedOrigins").
 */
import type { PortalContext } from '../../context.ts';
import type { OrgRow } from './repo.ts';
import { defaultOrg } from './repo.ts';

/** How long a list read from the database is trusted before it is read again. */
export const ALLOWED_ORIGINS_TTL_MS = 5_000;

/** An organization's list as stored in its settings (absent or malformed: empty, every origin allowed). */
export function storedAllowedOrigins(org: Pick<OrgRow, 'settings'>): string[] {
  const value = org.settings?.allowedOrigins;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export class AllowedOrigins {
  private origins: ReadonlySet<string> | undefined;
  private readAt = 0;
  private reading: Promise<ReadonlySet<string>> | undefined;
  /** Counts forget() calls: a read that started before one may hold the old list and is not kept. */
  private generation = 0;

  constructor(private readonly ctx: PortalContext) {}

  /** The list when it is fresh enough to use without a read (empty: every origin allowed). */
  fresh(): ReadonlySet<string> | undefined {
    return this.origins && this.ctx.clock.now() - this.readAt < ALLOWED_ORIGINS_TTL_MS ? this.origins : undefined;
  }

  /** Reads the list; concurrent callers share one read. */
  refresh(): Promise<ReadonlySet<string>> {
    this.reading ??= (async () => {
      const generation = this.generation;
      try {
        const org = await defaultOrg(this.ctx.db);
        const origins: ReadonlySet<string> = new Set(org ? storedAllowedOrigins(org) : []);
        if (generation === this.generation) {
          this.origins = origins;
          this.readAt = this.ctx.clock.now();
        }
        return origins;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /** This process changed the list: the next request reads it again. */
  forget(): void {
    this.origins = undefined;
    this.reading = undefined;
    this.generation++;
  }
}

const LISTS = new WeakMap<PortalContext, AllowedOrigins>();

/** The one cache of a running portal. */
export function allowedOriginsOf(ctx: PortalContext): AllowedOrigins {
  let list = LISTS.get(ctx);
  if (!list) LISTS.set(ctx, (list = new AllowedOrigins(ctx)));
  return list;
}
