/**
 * Configuration from the environment, validated at start: each bad value gets its own message.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { TASK_LIMITS, type TaskType } from '../shared/contract/tasks.ts';
import { parseOutboundAllow, type OutboundAllow } from './http/outboundAllow.ts';
import { projectPath } from './projectPaths.ts';

/**
 * Where the build puts what the service reads at start, overridable for tests and packaging. Read
 * here, with the other settings, but as constants: the build scripts need them with no Config, and
 * the service needs them before its Config is loaded (the template seeds the database it opens).
 */
export const BUILT_FILES = {
  /** DB_TEMPLATE_DIR: the embedded database's template (store/template.ts); `off` for none. */
  templateDir: process.env.DB_TEMPLATE_DIR || `${projectPath('dist', 'db-template')}/`,
  /** DEMO_HASHES_FILE: the demo accounts' precomputed password hashes (seed/demoHashes.ts). */
  demoHashesFile: process.env.DEMO_HASHES_FILE || projectPath('dist', 'demo-password-hashes.json'),
};

export const DEMO_PASSWORD = 'Portal.Demo.2026';

const onOff = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'], { message: 'must be one of on/off, true/false, 1/0, yes/no' })
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

/** A positive decimal number of `unit` (e.g. "30", "0.01"). */
const positive = (unit: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, `must be a number of ${unit}`)
    .transform(Number)
    .pipe(z.number().positive(`must be more than 0 ${unit}`).max(36_500, `must be at most 36500 ${unit}`));

/** PUBLIC_URL: http(s), a host, and nothing after the path (which has no trailing slash). */
function isPublicUrl(value: string): boolean {
  try {
    const url = new URL(value);
    const plain = !url.search && !url.hash && !url.username && !url.password && !value.endsWith('/');
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname && plain && url.href.replace(/\/$/, '') === value;
  } catch {
    return false;
  }
}

/** An IPv4 or IPv6 address, or one with a /prefix length that fits it. */
function isAddressOrRange(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  const kind = isIP(address);
  if (!kind || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128));
}

export interface TaskSettings {
  activePerUser: number;
  activePerOrg: number;
  /** External runner per type; a type without one fails its runs with a reason saying so. */
  runnerUrls: Partial<Record<TaskType, string>>;
  /** Geoprocessing: how often a submitted job is polled, and how long it may take in all. */
  gpPollMs: number;
  gpTimeoutMs: number;
}

export const TASK_DEFAULTS: TaskSettings = {
  activePerUser: TASK_LIMITS.activePerUser,
  activePerOrg: TASK_LIMITS.activePerOrg,
  runnerUrls: {},
  gpPollMs: 2000,
  gpTimeoutMs: 30 * 60_000,
};

/** The environment variable naming each hand-off type's runner. */
export const RUNNER_ENV = {
  ExecuteNotebook: 'TASK_RUNNER_NOTEBOOK_URL',
  UpdateInsightsWorkbook: 'TASK_RUNNER_INSIGHTS_URL',
  ExecuteSceneCook: 'TASK_RUNNER_SCENE_URL',
  ExecuteWorkflowManager: 'TASK_RUNNER_WORKFLOW_URL',
} as const satisfies Partial<Record<TaskType, string>>;

const taskCount = (fallback: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(1).max(1_000_000)).default(fallback);
const taskMs = (fallback: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number of milliseconds').transform(Number).pipe(z.number().int().min(10)).default(fallback);
const runnerUrl = z
  .string()
  .regex(/^https?:\/\//, 'must be an http:// or https:// URL')
  .optional();

const envSchema = z.object({
  PORT: z.string().regex(/^\d+$/, 'must be a port number').transform(Number).pipe(z.number().int().min(0).max(65535, 'must be at most 65535')).default(3000),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  /**
   * scrypt's cost (log2 N) for passwords hashed from now on: 17 (OWASP) unless lowered for a test
   * portal on loopback — every sign-in of a test run otherwise costs half a CPU-second.
   */
  PASSWORD_LOG_N: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(10).max(20)).default(17),
  /** Folder of the built console (default dist/client): lets several builds be served side by side. */
  CONSOLE_DIR: z.string().min(1, 'must not be empty').optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  PORTAL_ADMIN_USERNAME: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{4,127}$/, 'must be 5–128 letters, digits or . _ @ -, starting with a letter or digit')
    .default('admin'),
  PORTAL_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DEMO_DATA: onOff.default(true),
  /** Shorthand for OUTBOUND_ALLOW of loopback and the private ranges (http/outboundAllow.ts). */
  ALLOW_PRIVATE_OUTBOUND: onOff.default(false),
  /** Non-public addresses, ranges and host names outbound requests may reach; each bad entry named. */
  OUTBOUND_ALLOW: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      for (const message of parseOutboundAllow(v).errors) ctx.addIssue({ code: 'custom', message });
    }),
  // Retention (docs/operations.md). Decimals are allowed so tests and the soak benchmark can shorten them.
  RETENTION_DELIVERIES_DAYS: positive('days').default(30),
  RETENTION_DELIVERIES_PER_WEBHOOK: z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000'))
    .default(1000),
  RETENTION_EVENTS_DAYS: positive('days').default(365),
  RETENTION_UPLOADS_HOURS: positive('hours').default(24),
  RETENTION_ITEM_JOBS_DAYS: positive('days').default(7),
  RETENTION_SWEEP_INTERVAL_SECONDS: z
    .string()
    .regex(/^\d+$/, 'must be a whole number of seconds')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(86_400, 'must be at most 86400'))
    .default(300),
  // Member lifecycle: how many days before a member's expiration the warning event goes out.
  MEMBER_EXPIRY_WARNING_DAYS: positive('days').default(7),
  // Member search: how far a search pages with LOCAL_EXTRAS=off (ArcGIS Online's 10,000 when absent; tests set a small one).
  MEMBER_SEARCH_CAP: z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().int().min(1)).optional(),
  // Scheduled tasks: active-task limits, geoprocessing polling, and the external runner of each hand-off type.
  TASKS_MAX_ACTIVE_PER_USER: taskCount(TASK_LIMITS.activePerUser),
  TASKS_MAX_ACTIVE_PER_ORG: taskCount(TASK_LIMITS.activePerOrg),
  TASK_GP_POLL_MS: taskMs(TASK_DEFAULTS.gpPollMs),
  TASK_GP_TIMEOUT_MS: taskMs(TASK_DEFAULTS.gpTimeoutMs),
  TASK_RUNNER_NOTEBOOK_URL: runnerUrl,
  TASK_RUNNER_INSIGHTS_URL: runnerUrl,
  TASK_RUNNER_SCENE_URL: runnerUrl,
  TASK_RUNNER_WORKFLOW_URL: runnerUrl,
  /** The local portal's extras (fields and operations the public API lacks): on unless said (docs/local-extras.md). */
  LOCAL_EXTRAS: onOff.default(true),
  /** Every request logged (Fastify's logger) when on. */
  LOG_REQUESTS: onOff.default(false),
  /**
   * Addresses (or CIDR ranges) of the reverse proxies or load balancers in front of the service,
   * comma-separated: a request from one of them is taken to come from the address its
   * X-Forwarded-For names. Sign-in throttling counts failures per client address, so behind a proxy
   * without this every client shares the proxy's address (docs/security.md "Sign-in throttling").
   */
  TRUST_PROXY: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isAddressOrRange), 'must be comma-separated IP addresses or CIDR ranges (e.g. 127.0.0.1,::1)')
    .optional(),
  /** Where users reach the console behind a proxy (OAuth redirect URIs, /console-config.json; docs/oauth.md). */
  PUBLIC_URL: z.string().refine(isPublicUrl, 'must be an http:// or https:// URL without a trailing slash, query, fragment or credentials').optional(),
  /**
   * Where item files live (store/openBlobs.ts): `file` (DATA_DIR/blobs, the default) or
   * `s3://bucket/prefix` in an S3-compatible object store, which several instances share.
   */
  BLOB_STORE: z
    .string()
    .refine(
      (v) => v === 'file' || parseS3Url(v) !== undefined,
      'must be file or s3://bucket[/prefix] (a bucket name of 3–63 lower-case letters, digits, dots and hyphens)',
    )
    .optional(),
  /** An S3-compatible service other than AWS (MinIO, Ceph Object Gateway, R2…): its http(s) URL. */
  S3_ENDPOINT: z
    .string()
    .refine((v) => /^https?:\/\/[^/?#]+\/?$/.test(v), 'must be an http:// or https:// URL of the service, without a path')
    .optional(),
  /** Path-style requests (http://host/bucket/key): most S3-compatible servers need it. */
  S3_FORCE_PATH_STYLE: onOff.default(false),
  /** The bucket's region (the AWS SDK's own variable); us-east-1 when absent. */
  AWS_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as us-east-1')
    .default('us-east-1'),
  /** HTTPS (http/tls.ts): `self-signed` generates a development certificate in DATA_DIR/tls; `off` is plain HTTP. */
  TLS: z.enum(['self-signed', 'off'], { message: 'must be self-signed or off (or give TLS_CERT and TLS_KEY)' }).optional(),
  /** PEM files of the certificate (with its chain) and its private key: both or neither. */
  TLS_CERT: z.string().min(1).optional(),
  TLS_KEY: z.string().min(1).optional(),
});

/** How the service speaks HTTPS: from files, or with a generated development certificate. */
export type TlsSetting = { source: 'files'; certFile: string; keyFile: string } | { source: 'self-signed' };

/** BLOB_STORE=s3://…: the bucket and the object name prefix ('' or ending in '/'). */
export interface S3BlobSetting {
  kind: 's3';
  bucket: string;
  prefix: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
}

/** `s3://bucket[/prefix]` → bucket and prefix; undefined when it is not such a URL. */
export function parseS3Url(value: string): { bucket: string; prefix: string } | undefined {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(value);
  if (!m) return undefined;
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((segment) => segment === '..' || segment === '.') || /[\x00-\x1f\\]/.test(prefix)) return undefined;
  return { bucket: m[1], prefix: prefix ? `${prefix}/` : '' };
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** BLOB_STORE: item files in an object store; under DATA_DIR/blobs when absent. */
  blobStore?: S3BlobSetting;
  /** Folder of the built console; dist/client when absent. */
  consoleDir?: string;
  databaseUrl?: string;
  adminUsername: string;
  /** The administrator's (and in demo mode every demo account's) first-start password. */
  adminPassword: string;
  adminPasswordGiven: boolean;
  demoData: boolean;
  /** Where outbound requests may go besides public addresses (OUTBOUND_ALLOW, ALLOW_PRIVATE_OUTBOUND). */
  outboundAllow: OutboundAllow;
  /** Off: answers carry only public fields and local-only operations answer as unknown ones (docs/local-extras.md). */
  localExtras: boolean;
  /** LOG_REQUESTS: every request logged. */
  logRequests?: boolean;
  /** TLS, TLS_CERT, TLS_KEY: the service listens with HTTPS; plain HTTP when absent. */
  tls?: TlsSetting;
  /** PUBLIC_URL: the console's address when it is not http(s)://HOST:PORT (no trailing slash). */
  publicUrl?: string;
  /** TRUST_PROXY: proxies whose X-Forwarded-For names the client (req.ip); none when absent. */
  trustProxy?: string[];
  /** scrypt cost as log2(N); production uses 17 (OWASP), tests may lower it. */
  passwordLogN: number;
  /** How long finished work is kept (jobs/retention.ts); RETENTION_DEFAULTS when absent. */
  retention?: RetentionConfig;
  /** Scheduled tasks' limits and runners (TASK_* and TASKS_*); TASK_DEFAULTS when absent. */
  tasks?: TaskSettings;
  /** MEMBER_EXPIRY_WARNING_DAYS: days before a member's expiration that its warning event goes out; 7 when absent. */
  memberExpiryWarningDays?: number;
  /** MEMBER_SEARCH_CAP: with the extras off, results past this many cannot be paged to; 10,000 (ArcGIS Online's) when absent. */
  memberSearchCap?: number;
  /** How the retention sweep paces itself (jobs/retention.ts); RETENTION_SWEEP_DEFAULTS when absent. */
  retentionSweeps?: RetentionSweepSettings;
  /** The bulk member jobs runner's batches, leases and polling (jobs/memberJobs.ts); MEMBER_JOB_DEFAULTS when absent. */
  memberJobs?: MemberJobSettings;
  /** The item jobs runner's leases, download bounds and polling (jobs/itemJobs.ts); ITEM_JOB_DEFAULTS when absent. */
  itemJobs?: ItemJobSettings;
  /** The webhook dispatcher's polling, batches, limits in flight and leases (jobs/webhooks); WEBHOOK_DISPATCH_DEFAULTS when absent. */
  webhooks?: WebhookDispatchSettings;
  /** What a package's esriinfo/ folder may inflate to (areas/items/esriinfo.ts); ESRIINFO_DEFAULTS when absent. */
  esriInfo?: EsriInfoSettings;
  /** The task scheduler's batches, leases, catch-up and pruning (jobs/scheduler.ts); SCHEDULER_DEFAULTS when absent. */
  scheduler?: SchedulerSettings;
}

/** The task settings in force for a service. */
export function taskSettingsOf(config: Pick<Config, 'tasks'>): TaskSettings {
  return config.tasks ?? TASK_DEFAULTS;
}

/** Durations in ms. */
export interface RetentionConfig {
  /** Delivered and failed webhook deliveries (and their attempt log), by when they finished. */
  deliveriesMs: number;
  /** The newest finished deliveries kept per webhook, whatever their age. */
  deliveriesPerWebhook: number;
  /** Outbox events, by when they happened (history reads them: keep at least a year by default). */
  eventsMs: number;
  /** Multipart uploads never committed, from their start; temporary files untouched this long. */
  uploadsMs: number;
  /** Finished (done or failed) background item jobs, by their last update. */
  itemJobsMs: number;
  /** Pause between two sweeps. */
  sweepIntervalMs: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const RETENTION_DEFAULTS: RetentionConfig = {
  deliveriesMs: 30 * DAY_MS,
  deliveriesPerWebhook: 1000,
  eventsMs: 365 * DAY_MS,
  uploadsMs: 24 * HOUR_MS,
  itemJobsMs: 7 * DAY_MS,
  sweepIntervalMs: 300_000,
};

/** How the retention sweep paces itself: no environment variable sets these; tests may override them. */
export interface RetentionSweepSettings {
  /** Rows per batch statement. */
  batch: number;
  /** Abandoned uploads per batch (each is its own transaction and removes files). */
  uploadBatch: number;
  /** Pause after each batch, so requests and deliveries run between batches. */
  pauseMs: number;
  /** Rows removed from a table (since its last vacuum) after which it is vacuumed (embedded database only). */
  vacuumAfterRows: number;
  /** Every this many passes the whole embedded database is vacuumed (hourly at the default interval). */
  vacuumEveryPasses: number;
  /** The first pass runs this long after start (or after one interval, if shorter): start stays fast. */
  firstPassDelayMs: number;
  /** The blob store is walked (for unfinished writes and files no row refers to) at most this often. */
  blobScanEveryMs: number;
}

export const RETENTION_SWEEP_DEFAULTS: RetentionSweepSettings = {
  batch: 500,
  uploadBatch: 20,
  pauseMs: 20,
  vacuumAfterRows: 2_000,
  vacuumEveryPasses: 12,
  firstPassDelayMs: 30_000,
  blobScanEveryMs: 6 * HOUR_MS,
};

/** The bulk member jobs runner: no environment variable sets these; tests may override them. */
export interface MemberJobSettings {
  /** Members a batch (one transaction) acts on. */
  batchSize: number;
  /** A claimed job is the runner's for this long past each batch; another runner takes it after. */
  leaseMs: number;
  /** A runner works this long on one job before letting others' jobs have a turn. */
  sliceMs: number;
  pollMs: number;
}

export const MEMBER_JOB_DEFAULTS: MemberJobSettings = {
  batchSize: 50,
  leaseMs: 10_000,
  sliceMs: 5_000,
  pollMs: 1000,
};

/** The item jobs runner (async dataUrl downloads): no environment variable sets these; tests may override them. */
export interface ItemJobSettings {
  /** A claimed job is someone's for this long; the runner renews it while working. */
  leaseMs: number;
  /** Claims of one job before it is given up (a job that crashes its runner each time). */
  maxAttempts: number;
  /** Largest file a dataUrl may bring. */
  maxDownloadBytes: number;
  /** The whole download, all parts. */
  downloadTimeoutMs: number;
  /** Connecting, the response head, and any pause of the body. */
  requestTimeoutMs: number;
  /** Byte-range parts: size and how many run at once. */
  partBytes: number;
  parallelParts: number;
  pollMs: number;
  /** Jobs one process runs at once (a large download does not hold up the others). */
  concurrentJobs: number;
}

export const ITEM_JOB_DEFAULTS: ItemJobSettings = {
  leaseMs: 2 * 60_000,
  maxAttempts: 3,
  maxDownloadBytes: 2 * 1024 * 1024 * 1024,
  downloadTimeoutMs: 30 * 60_000,
  requestTimeoutMs: 30_000,
  partBytes: 16 * 1024 * 1024,
  parallelParts: 4,
  pollMs: 1000,
  concurrentJobs: 2,
};

/** The task scheduler (jobs/scheduler.ts): no environment variable sets these; tests may override them. */
export interface SchedulerSettings {
  /** Longest wait between looks at the database when nothing is due sooner (other processes' tasks). */
  pollMs: number;
  /** Due tasks turned into runs per transaction. */
  claimBatch: number;
  /** Runs executing at once in one process. */
  maxInFlight: number;
  /**
   * Runs claimed beyond those executing, kept in a local queue: a burst costs one claim per this
   * many runs rather than one per round of slots (each claim statement scans the waiting runs).
   */
  claimAhead: number;
  /** A run's lease: longer than any executor's own time limit. */
  leaseMs: number;
  /** Claims of one run (a process died during it) before it fails as interrupted. */
  maxAttempts: number;
  /** Missed occurrences recorded one by one (as skipped) per recovery. */
  skippedRecorded: number;
  /** Missed occurrences counted when working out what was missed; beyond this the count is "more than". */
  catchUpScan: number;
  /** Finished runs kept per task (older ones are pruned); the runs operation lists the newest 30. */
  runsKept: number;
  /** How often one process prunes old runs. */
  pruneEveryMs: number;
}

export const SCHEDULER_DEFAULTS: SchedulerSettings = {
  pollMs: 1000,
  claimBatch: 200,
  maxInFlight: 32,
  claimAhead: 200,
  leaseMs: 40 * 60_000,
  maxAttempts: 2,
  skippedRecorded: 100,
  catchUpScan: 10_000,
  runsKept: 100,
  pruneEveryMs: 10 * 60_000,
};

/** The webhook dispatcher (jobs/webhooks): no environment variable sets these; tests may override them. */
export interface WebhookDispatchSettings {
  pollMs: number;
  /**
   * With the embedded database this process writes every event and nudges the loop itself; the poll
   * only finds retries come due (at least a second apart), so it need not read the outbox five times
   * a second: at 200 ms it was most of an idle portal's CPU.
   */
  embeddedPollMs: number;
  /** Outbox rows read per fan-out transaction. */
  fanOutBatch: number;
  /** How long a seq gap may hold the cursor back on PostgreSQL (a transaction still committing). */
  gapGraceMs: number;
  /** Deliveries of one webhook in flight at once. */
  perWebhook: number;
  /** Deliveries in flight at once in one process. */
  maxInFlight: number;
  /** The lease is the request's time limit plus this. */
  leaseMarginMs: number;
  /** The start of a receiver's answer kept in the attempt log. */
  responseExcerptBytes: number;
  /** Attempts after which the drained queue's tables are vacuumed (embedded database only). */
  vacuumAfterAttempts: number;
}

export const WEBHOOK_DISPATCH_DEFAULTS: WebhookDispatchSettings = {
  pollMs: 200,
  embeddedPollMs: 1000,
  fanOutBatch: 500,
  gapGraceMs: 10_000,
  perWebhook: 8,
  maxInFlight: 32,
  leaseMarginMs: 30_000,
  responseExcerptBytes: 2048,
  vacuumAfterAttempts: 5_000,
};

/** The webhook dispatcher's settings in force for a service. */
export function webhookDispatchOf(config: Pick<Config, 'webhooks'>): WebhookDispatchSettings {
  return config.webhooks ?? WEBHOOK_DISPATCH_DEFAULTS;
}

/**
 * What a package's esriinfo/ folder may inflate to (an archive is text from anyone): no environment
 * variable sets these; tests may override them.
 */
export interface EsriInfoSettings {
  /** Files and folders under esriinfo/. */
  maxEntries: number;
  /** Bytes inflated from esriinfo/ altogether. */
  maxTotalBytes: number;
  /** Inflated bytes per compressed byte, per entry. */
  maxRatio: number;
  /** The item card is read into memory: at most this big. */
  maxCardBytes: number;
}

export const ESRIINFO_DEFAULTS: EsriInfoSettings = {
  maxEntries: 1000,
  maxTotalBytes: 100 * 1024 * 1024,
  maxRatio: 100,
  maxCardBytes: 1024 * 1024,
};

export class ConfigError extends Error {}

function tlsSetting(e: { TLS?: 'self-signed' | 'off'; TLS_CERT?: string; TLS_KEY?: string }): TlsSetting | undefined {
  const files = e.TLS_CERT !== undefined || e.TLS_KEY !== undefined;
  if (files && e.TLS) {
    throw new ConfigError(`TLS=${e.TLS} cannot be combined with TLS_CERT/TLS_KEY: give the files (HTTPS with them) or TLS=self-signed, not both.`);
  }
  if (files && (e.TLS_CERT === undefined || e.TLS_KEY === undefined)) {
    const missing = e.TLS_CERT === undefined ? 'TLS_CERT' : 'TLS_KEY';
    throw new ConfigError(`TLS_CERT and TLS_KEY go together: ${missing} is missing (the certificate and its private key, PEM files).`);
  }
  if (e.TLS_CERT !== undefined && e.TLS_KEY !== undefined) return { source: 'files', certFile: e.TLS_CERT, keyFile: e.TLS_KEY };
  return e.TLS === 'self-signed' ? { source: 'self-signed' } : undefined;
}

function blobSetting(e: { BLOB_STORE?: string; S3_ENDPOINT?: string; S3_FORCE_PATH_STYLE: boolean; AWS_REGION: string }): S3BlobSetting | undefined {
  const s3 = e.BLOB_STORE === undefined || e.BLOB_STORE === 'file' ? undefined : parseS3Url(e.BLOB_STORE);
  if (!s3) {
    if (e.S3_ENDPOINT !== undefined)
      throw new ConfigError('S3_ENDPOINT is set but BLOB_STORE is not s3://…: say which bucket to use (BLOB_STORE=s3://bucket/prefix).');
    return undefined;
  }
  return { kind: 's3', ...s3, endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''), region: e.AWS_REGION, forcePathStyle: e.S3_FORCE_PATH_STYLE };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** scrypt's cost for passwords (log2 N) that OWASP recommends, and the least a reachable portal takes. */
const OWASP_LOG_N = 17;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked = Object.fromEntries(Object.keys(envSchema.shape).flatMap((k) => (env[k] !== undefined && env[k] !== '' ? [[k, env[k]]] : [])));
  const result = envSchema.safeParse(picked);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${String(i.path[0])}=${JSON.stringify(picked[String(i.path[0])])}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.data;
  if (!LOOPBACK.has(e.HOST) && !e.PORTAL_ADMIN_PASSWORD) {
    throw new ConfigError(
      `Refusing to listen on HOST=${e.HOST} without PORTAL_ADMIN_PASSWORD: the demo password is public, ` +
        'so a portal reachable from other machines must be given its own administrator password.',
    );
  }
  if (e.PASSWORD_LOG_N < OWASP_LOG_N && !LOOPBACK.has(e.HOST)) {
    throw new ConfigError(`Refusing PASSWORD_LOG_N=${e.PASSWORD_LOG_N} on HOST=${e.HOST}: a cost below ${OWASP_LOG_N} is for test portals on loopback only.`);
  }
  return {
    tls: tlsSetting(e),
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    blobStore: blobSetting(e),
    consoleDir: e.CONSOLE_DIR,
    databaseUrl: e.DATABASE_URL,
    adminUsername: e.PORTAL_ADMIN_USERNAME,
    adminPassword: e.PORTAL_ADMIN_PASSWORD ?? DEMO_PASSWORD,
    adminPasswordGiven: e.PORTAL_ADMIN_PASSWORD !== undefined,
    demoData: e.DEMO_DATA,
    outboundAllow: parseOutboundAllow(e.OUTBOUND_ALLOW, e.ALLOW_PRIVATE_OUTBOUND).allow,
    localExtras: e.LOCAL_EXTRAS,
    logRequests: e.LOG_REQUESTS,
    publicUrl: e.PUBLIC_URL,
    trustProxy: e.TRUST_PROXY,
    passwordLogN: e.PASSWORD_LOG_N,
    retention: {
      deliveriesMs: Math.round(e.RETENTION_DELIVERIES_DAYS * DAY_MS),
      deliveriesPerWebhook: e.RETENTION_DELIVERIES_PER_WEBHOOK,
      eventsMs: Math.round(e.RETENTION_EVENTS_DAYS * DAY_MS),
      uploadsMs: Math.round(e.RETENTION_UPLOADS_HOURS * HOUR_MS),
      itemJobsMs: Math.round(e.RETENTION_ITEM_JOBS_DAYS * DAY_MS),
      sweepIntervalMs: Math.round(e.RETENTION_SWEEP_INTERVAL_SECONDS * 1000),
    },
    memberExpiryWarningDays: e.MEMBER_EXPIRY_WARNING_DAYS,
    memberSearchCap: e.MEMBER_SEARCH_CAP,
    tasks: {
      activePerUser: e.TASKS_MAX_ACTIVE_PER_USER,
      activePerOrg: e.TASKS_MAX_ACTIVE_PER_ORG,
      runnerUrls: Object.fromEntries(Object.entries(RUNNER_ENV).flatMap(([type, name]) => (e[name] ? [[type, e[name]]] : []))),
      gpPollMs: e.TASK_GP_POLL_MS,
      gpTimeoutMs: e.TASK_GP_TIMEOUT_MS,
    },
  };
}
