/**
 * Runs the real local portal (test/support/service.ts: fresh in-memory database, demo data) in a
 * plain Node process for the client tests, which run under jsdom. It prints one JSON line
 * `{restUrl, orgId, partnerOrgId}` when it listens, and stops when its stdin closes.
 */
import { startService } from '../../../test/support/service.ts';
import { startJobs } from '../../server/jobs/itemJobs.ts';
import { startMemberJobs } from '../../server/jobs/memberJobs.ts';
import { startWebhookDispatcher } from '../../server/jobs/webhooks/dispatcher.ts';

// LOCAL_EXTRAS=off: a portal without this portal's extras, as another portal would answer (docs/local-extras.md).
// MEMBER_SEARCH_CAP: how far a search pages with the extras off (ArcGIS Online's 10,000 when unset; tests set a small one).
const searchCap = process.env.MEMBER_SEARCH_CAP ? Number(process.env.MEMBER_SEARCH_CAP) : undefined;
const svc = await startService({ config: { localExtras: process.env.LOCAL_EXTRAS !== 'off', memberSearchCap: searchCap } });
const restUrl = await svc.listen();
// The background item jobs (dataUrl downloads) run as they do in the real service.
const jobs = startJobs(svc.app.portal);
// Bulk member jobs (a local extra) run as in the real service.
const memberJobs = startMemberJobs(svc.app.portal);
// Webhook deliveries only when a test asks (WEBHOOK_DELIVERIES=on): the others make no outbound calls.
const webhooks = process.env.WEBHOOK_DELIVERIES === 'on' ? startWebhookDispatcher(svc.app.portal) : null;
process.stdout.write(`${JSON.stringify({ restUrl, orgId: svc.orgId, partnerOrgId: svc.partnerOrgId })}\n`);

let closing = false;
const stop = async () => {
  // A second signal, or a close that waits on lingering keep-alive connections, must not keep it running.
  if (closing) process.exit(0);
  closing = true;
  setTimeout(() => process.exit(0), 5_000).unref();
  await jobs.stop();
  await memberJobs.stop();
  await webhooks?.stop();
  await svc.close();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.stdin.resume();
process.once('SIGTERM', stop);
