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
/**
 * The portal of one test file. Between files the process is kept (src/client/test/service.ts): the
 * file's portal stops on `stop` and a new one on a fresh database starts on `start`, so a file
 * never sees another's data, while Node, the bundle and route compilation are paid once per worker
 * rather than once per file (about half of each start's CPU).
 */
interface Running {
  svc: Awaited<ReturnType<typeof startService>>;
  stop(): Promise<void>;
}
let running: Running | null = null;

async function start(): Promise<void> {
  const svc = await startService({ config: { localExtras: process.env.LOCAL_EXTRAS !== 'off', memberSearchCap: searchCap } });
  const restUrl = await svc.listen();
  // The background item jobs (dataUrl downloads) run as they do in the real service.
  const jobs = startJobs(svc.app.portal);
  // Bulk member jobs (a local extra) run as in the real service.
  const memberJobs = startMemberJobs(svc.app.portal);
  // Webhook deliveries only when a test asks (WEBHOOK_DELIVERIES=on): the others make no outbound calls.
  const webhooks = process.env.WEBHOOK_DELIVERIES === 'on' ? startWebhookDispatcher(svc.app.portal) : null;
  running = {
    svc,
    async stop() {
      await jobs.stop();
      await memberJobs.stop();
      await webhooks?.stop();
      await svc.close();
    },
  };
  process.stdout.write(`${JSON.stringify({ restUrl, orgId: svc.orgId, partnerOrgId: svc.partnerOrgId })}\n`);
}

async function stopRunning(): Promise<void> {
  const was = running;
  running = null;
  await was?.stop();
}

let closing = false;
const exit = async () => {
  // A second signal, or a close that waits on lingering keep-alive connections, must not keep it running.
  if (closing) process.exit(0);
  closing = true;
  setTimeout(() => process.exit(0), 5_000).unref();
  await stopRunning();
  process.exit(0);
};

// Commands, one per line on stdin: `stop` (the file is done: answers `stopped`), `start` (a new
// portal for the next file: answers its JSON line). Stdin closing ends the process.
let commands: Promise<void> = Promise.resolve();
let pending = '';
process.stdin.on('data', (chunk: Buffer) => {
  pending += chunk.toString();
  let newline: number;
  while ((newline = pending.indexOf('\n')) >= 0) {
    const command = pending.slice(0, newline).trim();
    pending = pending.slice(newline + 1);
    commands = commands.then(async () => {
      if (command === 'stop') {
        await stopRunning();
        process.stdout.write('stopped\n');
      } else if (command === 'start') await start();
    });
  }
});
process.stdin.on('end', exit);
process.stdin.on('close', exit);
process.once('SIGTERM', exit);
// The first portal, as a command would start it (no top-level await: the bundle is CommonJS).
commands = commands.then(start);
