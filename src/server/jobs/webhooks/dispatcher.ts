/**
 * Organization webhook delivery: the loop that runs the three jobs — fan-out (fanOut.ts), claiming
 * (claim.ts) and delivery (deliver.ts). Events come only from the outbox (`events`, written in the
 * same transaction as the change they report).
 *
 * At most perWebhook deliveries of one webhook are in flight and maxInFlight overall, so a
 * slow receiver does not hold up other webhooks.
 */
import type { PortalContext } from '../../context.ts';
import { nextDeliveryDueAt, vacuumDeliveryTables } from '../../areas/webhooks/service.ts';
import { claimDeliveries, type ClaimedDelivery } from './claim.ts';
import { attemptDelivery } from './deliver.ts';
import { fanOut } from './fanOut.ts';
import { webhookDispatchOf, type WebhookDispatchSettings } from '../../config.ts';
import { onSignal } from '../../core/signals.ts';
import { eventsRecordedHere } from '../../store/events.ts';
import { EMBEDDED_IDLE_MS } from '../passLoop.ts';

/**
 * One pass (tests call this): fan out every new outbox row, then send every due delivery —
 * several at once — until none is due. Answers how many attempts were made.
 */
export async function runWebhookDispatch(ctx: PortalContext): Promise<number> {
  const limits = webhookDispatchOf(ctx.config);
  while ((await fanOut(ctx)) > 0);
  let attempts = 0;
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<unknown>>();
  for (;;) {
    if (worthClaiming(limits, inFlight)) {
      const batch = await claimDeliveries(ctx, freeSlots(limits, inFlight), inFlight);
      attempts += batch.length;
      for (const d of batch) launch(ctx, d, inFlight, running, () => {});
    }
    if (!running.size) return attempts;
    await Promise.race(running);
  }
}

const freeSlots = (limits: WebhookDispatchSettings, inFlight: ReadonlyMap<string, number>) =>
  limits.maxInFlight - [...inFlight.values()].reduce((a, b) => a + b, 0);

/**
 * A claim costs the same for one delivery as for eight: claim when nothing is in flight or at
 * least half the slots are free, not after every single attempt. A webhook held at its own limit
 * (a slow receiver) does not count against the others.
 */
function worthClaiming(limits: WebhookDispatchSettings, inFlight: ReadonlyMap<string, number>): boolean {
  const free = freeSlots(limits, inFlight);
  if (free <= 0) return false;
  let others = 0;
  for (const n of inFlight.values()) if (n < limits.perWebhook) others += n;
  return others === 0 || free >= limits.maxInFlight / 2;
}

/** Starts one attempt, counted in `inFlight` per webhook until it ends. */
function launch(ctx: PortalContext, d: ClaimedDelivery, inFlight: Map<string, number>, running: Set<Promise<unknown>>, ended: () => void): void {
  inFlight.set(d.webhook_id, (inFlight.get(d.webhook_id) ?? 0) + 1);
  const p: Promise<unknown> = attemptDelivery(ctx, d)
    .catch((err) => ctx.log.error({ err }, 'webhook delivery failed'))
    .finally(() => {
      const n = (inFlight.get(d.webhook_id) ?? 1) - 1;
      if (n > 0) inFlight.set(d.webhook_id, n);
      else inFlight.delete(d.webhook_id);
      running.delete(p);
      ended();
    });
  running.add(p);
}

/**
 * The embedded database has no autovacuum. Every delivery leaves two dead row versions (pending,
 * running) and index entries that claims must step over, so a burst would slow every later
 * claim; once the queue has drained after many attempts, the two tables are vacuumed (and their
 * statistics refreshed for the planner). PostgreSQL's autovacuum does this by itself.
 */
async function vacuumDeliveries(ctx: PortalContext): Promise<void> {
  const started = performance.now();
  await vacuumDeliveryTables(ctx.db);
  ctx.log.info({ ms: Math.round(performance.now() - started) }, 'webhook deliveries vacuumed');
}

export interface WebhookDispatcher {
  stop(): Promise<void>;
}

/**
 * The background loop main.ts starts: polls every pollMs (embeddedPollMs on the embedded database;
 * Config webhooks), and at once when this process queues work.
 * On the embedded database, which only this process writes, a poll reads the outbox only when this
 * process has written events since the last read, and claims only once a delivery may be due (a
 * nudge, an attempt ended, or the next due moment reached): an idle poll touches no table. It still
 * reads both every EMBEDDED_IDLE_MS.
 */
export function startWebhookDispatcher(ctx: PortalContext): WebhookDispatcher {
  const limits = webhookDispatchOf(ctx.config);
  const pollMs = ctx.db.kind === 'pglite' ? limits.embeddedPollMs : limits.pollMs;
  let stopped = false;
  let busy = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<unknown> = Promise.resolve();
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<unknown>>();
  // A delivery ending wakes the loop to claim more, not to read the outbox again: the outbox is
  // read when this process wrote an event (a nudge) or a poll interval has passed (events written
  // by other processes). Likewise the due check is skipped while claims come back full.
  let outboxWanted = true;
  let outboxReadAt = 0;
  let lastClaimFull = false;
  let dueCheckedAt = 0;
  let attemptsSinceVacuum = 0;
  const embedded = ctx.db.kind === 'pglite';
  // Embedded: the events count at the last outbox read; when a delivery may next be due (clock ms,
  // 0: now), and a count of wake-ups, so a due moment read while one came is not used.
  let eventsAtRead = -1;
  let dueAt = 0;
  let wakes = 0;
  const mayBeDue = () => {
    dueAt = 0;
    wakes++;
  };
  const ended = () => {
    attemptsSinceVacuum++;
    mayBeDue();
    tick();
  };
  const pass = async () => {
    const sinceRead = performance.now() - outboxReadAt;
    const outboxNew = embedded ? eventsRecordedHere() !== eventsAtRead || sinceRead >= EMBEDDED_IDLE_MS : sinceRead >= pollMs;
    if (outboxWanted || outboxNew) {
      outboxWanted = false;
      outboxReadAt = performance.now();
      eventsAtRead = eventsRecordedHere();
      let fanned = 0;
      for (let n; !stopped && (n = await fanOut(ctx)) > 0;) fanned += n;
      if (fanned) mayBeDue();
    }
    if (stopped) return;
    if (!worthClaiming(limits, inFlight)) return;
    if (embedded && dueAt > ctx.clock.now() && performance.now() - dueCheckedAt < EMBEDDED_IDLE_MS) return;
    const want = freeSlots(limits, inFlight);
    const checkDue = !lastClaimFull || performance.now() - dueCheckedAt >= pollMs;
    if (checkDue) dueCheckedAt = performance.now();
    const wakesBefore = wakes;
    const batch = await claimDeliveries(ctx, want, inFlight, { checkDue });
    lastClaimFull = batch.length >= want;
    for (const d of batch) launch(ctx, d, inFlight, running, ended);
    if (embedded && !batch.length && !inFlight.size) {
      // When the next delivery comes due (a retry, or the lease of one in flight when a process stopped).
      const at = await nextDeliveryDueAt(ctx.db);
      // Due but not taken (its webhook inactive or at its limit): look again after pollMs, as on PostgreSQL.
      if (wakes === wakesBefore) dueAt = at === null ? Infinity : Math.max(at, ctx.clock.now() + pollMs);
    }
    if (!batch.length && !inFlight.size && attemptsSinceVacuum >= limits.vacuumAfterAttempts && ctx.db.kind === 'pglite') {
      attemptsSinceVacuum = 0;
      await vacuumDeliveries(ctx);
    }
  };
  const nudge = () => {
    outboxWanted = true;
    mayBeDue();
    tick();
  };
  // The poll: on PostgreSQL it reads the outbox for other processes' events; embedded, pass decides.
  const poll = embedded ? () => tick() : nudge;
  const tick = () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    clearTimeout(timer);
    busy = true;
    ticking = pass()
      .catch((err) => ctx.log.error({ err }, 'webhook dispatch failed'))
      .finally(() => {
        busy = false;
        if (stopped) return;
        if (again) {
          again = false;
          setImmediate(tick);
        } else timer = setTimeout(poll, pollMs);
      });
  };
  const unlisten = onSignal('webhookWorkQueued', nudge);
  timer = setTimeout(nudge, 0);
  return {
    async stop() {
      stopped = true;
      unlisten();
      clearTimeout(timer);
      await ticking;
      await Promise.all([...running]);
    },
  };
}
