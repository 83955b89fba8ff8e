/** The only file that listens: configuration, database, migrations, first-start data, HTTP. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, DEMO_PASSWORD, loadConfig } from './config.ts';
import { openDb } from './store/db.ts';
// Everything else is imported once the database is on its way (see main).

const startedAt = performance.now();

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // The database opens (a new embedded one is first copied from the template: store/template.ts)
  // while the rest of the service's modules load, which takes about a second; the first-start
  // accounts' password hashes (when not built ahead: seed/demoHashes.ts) are computed meanwhile too.
  const firstStart = !config.databaseUrl && !existsSync(path.join(config.dataDir, 'pgdata', 'PG_VERSION'));
  const opening = openDb({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, log: (m) => console.log(m) });
  const [
    { buildApp },
    { migrate },
    { bootstrap, hashSeedPasswords },
    { syncConsoleApp },
    { startJobs },
    { startWebhookDispatcher },
    { startTaskScheduler },
    { startRetentionSweeps },
    { startMemberLifecycle },
    { startMemberJobs },
    { loadTls, trustInstructions },
  ] = await Promise.all([
    import('./app.ts'),
    import('./store/migrate.ts'),
    import('./seed/bootstrap.ts'),
    import('./areas/oauth/consoleApp.ts'),
    import('./jobs/itemJobs.ts'),
    import('./jobs/webhooks/dispatcher.ts'),
    import('./jobs/scheduler.ts'),
    import('./jobs/retention.ts'),
    import('./jobs/memberLifecycle.ts'),
    import('./jobs/memberJobs.ts'),
    import('./http/tls.ts'),
  ]);
  // The certificate (read, or generated on a first TLS=self-signed start) before anything listens.
  let tls;
  try {
    tls = await loadTls(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const seedHashes = firstStart ? hashSeedPasswords(config) : undefined;
  const db = await opening;
  await migrate(db);
  const app = await buildApp({
    db,
    config,
    clientDir: config.consoleDir,
    logger: config.logRequests === true,
    https: tls ? { key: tls.key, cert: tls.cert } : undefined,
  });
  try {
    await app.portal.blobs.check?.();
  } catch (err) {
    console.error(`BLOB_STORE: ${(err as Error).message}`);
    process.exit(2);
  }
  const seeded = await bootstrap(app.portal, seedHashes);
  await app.listen({ port: config.port, host: config.host });
  const jobs = startJobs(app.portal);
  const webhooks = startWebhookDispatcher(app.portal);
  const scheduler = startTaskScheduler(app.portal);
  const retention = startRetentionSweeps(app.portal);
  const lifecycle = startMemberLifecycle(app.portal);
  const memberJobs = startMemberJobs(app.portal);

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Demo data: the console's own OAuth app follows this start's address (PORT may be 0, PUBLIC_URL may change).
  await syncConsoleApp(app.portal, port);
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const storage = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  const scheme = tls ? 'https' : 'http';
  console.log(`Portal Admin Console: ${scheme}://${host}:${port}/  (REST: ${scheme}://${host}:${port}/sharing/rest)`);
  if (tls?.selfSigned) {
    const made = tls.selfSigned.generated ? 'generated now' : 'reused';
    console.log(`HTTPS with a development certificate for localhost, 127.0.0.1 and ::1 (${made}, valid until ${tls.notAfter.toISOString().slice(0, 10)}).`);
    for (const line of trustInstructions(tls.selfSigned.caFile)) console.log(line);
  } else if (tls && tls.notAfter.getTime() < Date.now()) {
    console.warn(`Warning: the certificate TLS_CERT expired on ${tls.notAfter.toISOString().slice(0, 10)}; clients will refuse it.`);
  }
  console.log(`Storage: ${storage}${seeded.created ? ' (first start: organization created)' : ''}; files: ${app.portal.blobs.description}`);
  if (seeded.created || !config.adminPasswordGiven) {
    const password = config.adminPasswordGiven ? '(PORTAL_ADMIN_PASSWORD)' : DEMO_PASSWORD;
    const accounts = config.demoData ? `${config.adminUsername}, publisher1, user1, viewer1, partner_admin` : config.adminUsername;
    console.log(`Sign in as ${accounts} with password ${password}`);
  }
  console.log(`Ready in ${Math.round(performance.now() - startedAt)} ms`);

  const stop = async () => {
    await jobs.stop();
    await webhooks.stop();
    await scheduler.stop();
    await retention.stop();
    await lifecycle.stop();
    await memberJobs.stop();
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
