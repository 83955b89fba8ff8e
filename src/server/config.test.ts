import { describe, expect, it } from 'vitest';
import { ConfigError, DEMO_PASSWORD, loadConfig, RETENTION_DEFAULTS, TASK_DEFAULTS } from './config.ts';
import { NO_OUTBOUND_ALLOW, PRIVATE_OUTBOUND_ALLOW } from './http/outboundAllow.ts';

/** loadConfig's message for an environment it refuses (fails the test if it is accepted). */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('has defaults for an empty environment', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: undefined,
      adminUsername: 'admin',
      adminPassword: DEMO_PASSWORD,
      adminPasswordGiven: false,
      demoData: true,
      outboundAllow: NO_OUTBOUND_ALLOW,
      localExtras: true,
      logRequests: false,
      passwordLogN: 17,
      retention: RETENTION_DEFAULTS,
      memberExpiryWarningDays: 7,
      tasks: TASK_DEFAULTS,
    });
  });

  it("reads the scheduled tasks' settings, naming a bad one", () => {
    expect(loadConfig({ TASKS_MAX_ACTIVE_PER_USER: '3', TASK_GP_POLL_MS: '50', TASK_RUNNER_NOTEBOOK_URL: 'http://127.0.0.1:9100/run' }).tasks).toEqual({
      ...TASK_DEFAULTS,
      activePerUser: 3,
      gpPollMs: 50,
      runnerUrls: { ExecuteNotebook: 'http://127.0.0.1:9100/run' },
    });
    expect(refusal({ TASK_RUNNER_SCENE_URL: 'ftp://127.0.0.1/' })).toContain('TASK_RUNNER_SCENE_URL="ftp://127.0.0.1/": must be an http:// or https:// URL');
    expect(refusal({ TASKS_MAX_ACTIVE_PER_ORG: 'many' })).toContain('TASKS_MAX_ACTIVE_PER_ORG="many": must be a whole number');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '', DEMO_DATA: '' })).toMatchObject({ port: 3000, host: '127.0.0.1', demoData: true });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: 'localhost',
      DATA_DIR: '/var/lib/portal',
      DATABASE_URL: 'postgresql://portal@db:5432/portal',
      PORTAL_ADMIN_USERNAME: 'site.admin',
      PORTAL_ADMIN_PASSWORD: 'a-long-secret-1',
      DEMO_DATA: 'off',
      ALLOW_PRIVATE_OUTBOUND: 'yes',
      LOCAL_EXTRAS: 'off',
      LOG_REQUESTS: 'on',
    });
    expect(config).toEqual({
      port: 8080,
      host: 'localhost',
      dataDir: '/var/lib/portal',
      databaseUrl: 'postgresql://portal@db:5432/portal',
      adminUsername: 'site.admin',
      adminPassword: 'a-long-secret-1',
      adminPasswordGiven: true,
      demoData: false,
      outboundAllow: PRIVATE_OUTBOUND_ALLOW,
      localExtras: false,
      logRequests: true,
      passwordLogN: 17,
      retention: RETENTION_DEFAULTS,
      memberExpiryWarningDays: 7,
      tasks: TASK_DEFAULTS,
    });
  });

  it.each([
    ['1', true],
    ['true', true],
    ['on', true],
    ['yes', true],
    ['0', false],
    ['false', false],
    ['off', false],
    ['no', false],
  ])('reads DEMO_DATA=%s as %s', (value, expected) => {
    expect(loadConfig({ DEMO_DATA: value }).demoData).toBe(expected);
  });

  it('accepts postgres:// as well as postgresql://, and port 0', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x@y/z' }).databaseUrl).toBe('postgres://x@y/z');
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  it.each([
    ['PORT', 'abc', /PORT="abc": must be a port number/],
    ['PORT', '70000', /PORT="70000": must be at most 65535/],
    ['PORT', '-1', /PORT="-1"/],
    ['DEMO_DATA', 'maybe', /DEMO_DATA="maybe": must be one of on\/off, true\/false, 1\/0, yes\/no/],
    ['ALLOW_PRIVATE_OUTBOUND', 'sometimes', /ALLOW_PRIVATE_OUTBOUND="sometimes"/],
    [
      'OUTBOUND_ALLOW',
      'hooks.internal,not a host',
      /OUTBOUND_ALLOW="hooks.internal,not a host": entry "not a host" is not an IP address, a CIDR range or a host name/,
    ],
    ['OUTBOUND_ALLOW', '10.20.1.0/16', /entry "10.20.1.0\/16" has bits set after the prefix: did you mean 10.20.0.0\/16\?/],
    ['OUTBOUND_ALLOW', '10.0.0.0/33', /entry "10.0.0.0\/33" has an invalid prefix length: must be 0–32/],
    ['OUTBOUND_ALLOW', 'fd00::/129', /must be 0–128/],
    ['OUTBOUND_ALLOW', '300.1.2.3/8', /entry "300.1.2.3\/8" is not a CIDR range/],
    ['OUTBOUND_ALLOW', '127.1', /entry "127.1" ends in a number, so URLs read it as an IPv4 address/],
    ['OUTBOUND_ALLOW', '2130706433', /entry "2130706433" ends in a number/],
    ['OUTBOUND_ALLOW', '0.0.0.0', /entry "0.0.0.0" is an unspecified .* which can never be contacted/],
    ['OUTBOUND_ALLOW', 'http://hooks.internal', /entry "http:\/\/hooks.internal" is not a CIDR range/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL="mysql:\/\/x": must be a postgres:\/\/ or postgresql:\/\/ URL/],
    ['PORTAL_ADMIN_USERNAME', 'ab', /PORTAL_ADMIN_USERNAME="ab"/],
    ['PORTAL_ADMIN_PASSWORD', 'short', /PORTAL_ADMIN_PASSWORD="short": must be at least 8 characters/],
  ])('refuses %s=%s with a message naming it', (name, value, message) => {
    const text = refusal({ [name]: value });
    expect(text).toMatch(/^Invalid configuration:/);
    expect(text).toMatch(message);
  });

  it('names every bad value at once, one line each', () => {
    const text = refusal({ PORT: 'abc', DEMO_DATA: 'maybe', DATABASE_URL: 'mysql://x' });
    const lines = text.split('\n').slice(1);
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => l.trim().split('=')[0]).sort()).toEqual(['DATABASE_URL', 'DEMO_DATA', 'PORT']);
  });

  it('refuses a non-loopback HOST without PORTAL_ADMIN_PASSWORD, saying why', () => {
    const text = refusal({ HOST: '0.0.0.0' });
    expect(text).toContain('HOST=0.0.0.0');
    expect(text).toContain('PORTAL_ADMIN_PASSWORD');
    expect(text).toMatch(/demo password is public/);
    expect(refusal({ HOST: '192.168.1.20' })).toContain('PORTAL_ADMIN_PASSWORD');
  });

  it('listens on any host once PORTAL_ADMIN_PASSWORD is given', () => {
    const config = loadConfig({ HOST: '0.0.0.0', PORTAL_ADMIN_PASSWORD: 'a-long-secret-1' });
    expect(config).toMatchObject({ host: '0.0.0.0', adminPassword: 'a-long-secret-1', adminPasswordGiven: true });
  });

  it.each(['127.0.0.1', 'localhost', '::1'])('needs no password on loopback host %s', (host) => {
    expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ NODE_ENV: 'production', SOMETHING_ELSE: 'x' }).port).toBe(3000);
  });
});

describe('OUTBOUND_ALLOW', () => {
  it('reads addresses, ranges and host names, and ALLOW_PRIVATE_OUTBOUND as the private ranges', () => {
    const { outboundAllow } = loadConfig({ OUTBOUND_ALLOW: ' 127.0.0.1/32, 10.20.0.0/16,Hooks.Internal,*.svc.local, fd12:3456::/48 ,169.254.169.254,[::1]' });
    expect([...outboundAllow.exact].sort()).toEqual(['127.0.0.1', '169.254.169.254', '::1']);
    expect(outboundAllow.ranges).toHaveLength(2);
    expect([...outboundAllow.hosts]).toEqual(['hooks.internal']);
    expect(outboundAllow.suffixes).toEqual(['.svc.local']);
    expect(loadConfig({ ALLOW_PRIVATE_OUTBOUND: 'on', OUTBOUND_ALLOW: 'hooks.internal' }).outboundAllow.entries).toEqual(['private', 'hooks.internal']);
    expect(loadConfig({ ALLOW_PRIVATE_OUTBOUND: 'on' }).outboundAllow.ranges).toHaveLength(PRIVATE_OUTBOUND_ALLOW.ranges.length);
  });

  it('names each bad entry on its own line', () => {
    const text = refusal({ OUTBOUND_ALLOW: 'good.example,bad host,10.0.0.1/8,ok.internal' });
    const lines = text.split('\n').slice(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/entry "bad host"/);
    expect(lines[1]).toMatch(/entry "10.0.0.1\/8" has bits set after the prefix: did you mean 10.0.0.0\/8\?/);
  });
});

describe('retention settings', () => {
  it('default to 30 days and 1000 per webhook for deliveries, 365 days for events, 24 h for uploads, 7 days for item jobs, a sweep every 5 minutes', () => {
    expect(RETENTION_DEFAULTS).toEqual({
      deliveriesMs: 30 * 86_400_000,
      deliveriesPerWebhook: 1000,
      eventsMs: 365 * 86_400_000,
      uploadsMs: 24 * 3_600_000,
      itemJobsMs: 7 * 86_400_000,
      sweepIntervalMs: 300_000,
    });
  });

  it('reads each, decimals included', () => {
    expect(
      loadConfig({
        RETENTION_DELIVERIES_DAYS: '7',
        RETENTION_DELIVERIES_PER_WEBHOOK: '50',
        RETENTION_EVENTS_DAYS: '400',
        RETENTION_UPLOADS_HOURS: '0.5',
        RETENTION_ITEM_JOBS_DAYS: '1.5',
        RETENTION_SWEEP_INTERVAL_SECONDS: '30',
      }).retention,
    ).toEqual({
      deliveriesMs: 7 * 86_400_000,
      deliveriesPerWebhook: 50,
      eventsMs: 400 * 86_400_000,
      uploadsMs: 1_800_000,
      itemJobsMs: 1.5 * 86_400_000,
      sweepIntervalMs: 30_000,
    });
  });

  it.each([
    ['RETENTION_DELIVERIES_DAYS', '0', 'must be more than 0 days'],
    ['RETENTION_DELIVERIES_DAYS', '-1', 'must be a number of days'],
    ['RETENTION_EVENTS_DAYS', 'a year', 'must be a number of days'],
    ['RETENTION_EVENTS_DAYS', '40000', 'must be at most 36500 days'],
    ['RETENTION_UPLOADS_HOURS', '1e3', 'must be a number of hours'],
    ['RETENTION_DELIVERIES_PER_WEBHOOK', '0', 'must be at least 1'],
    ['RETENTION_DELIVERIES_PER_WEBHOOK', '2.5', 'must be a whole number'],
    ['RETENTION_SWEEP_INTERVAL_SECONDS', '0.5', 'must be a whole number of seconds'],
    ['RETENTION_SWEEP_INTERVAL_SECONDS', '0', 'must be at least 1'],
    ['RETENTION_SWEEP_INTERVAL_SECONDS', '100000', 'must be at most 86400'],
  ])('refuses %s=%s', (name, value, reason) => {
    expect(refusal({ [name]: value })).toContain(`${name}=${JSON.stringify(value)}: ${reason}`);
  });
});

describe('BLOB_STORE', () => {
  it("lowers the password hash's cost only for a portal on loopback (test portals), within 10..20", () => {
    expect(loadConfig({ PASSWORD_LOG_N: '10' }).passwordLogN).toBe(10);
    expect(loadConfig({ PASSWORD_LOG_N: '18', HOST: '0.0.0.0', PORTAL_ADMIN_PASSWORD: 'a long secret phrase' }).passwordLogN).toBe(18);
    expect(refusal({ PASSWORD_LOG_N: '10', HOST: '0.0.0.0', PORTAL_ADMIN_PASSWORD: 'a long secret phrase' })).toContain(
      'Refusing PASSWORD_LOG_N=10 on HOST=0.0.0.0: a cost below 17 is for test portals on loopback only.',
    );
    expect(refusal({ PASSWORD_LOG_N: '9' })).toContain('PASSWORD_LOG_N="9"');
    expect(refusal({ PASSWORD_LOG_N: 'low' })).toContain('must be a whole number');
  });

  it('keeps files on the local disk by default and for "file"', () => {
    expect(loadConfig({}).blobStore).toBeUndefined();
    expect(loadConfig({ BLOB_STORE: 'file' }).blobStore).toBeUndefined();
  });

  it('reads s3://bucket/prefix with the endpoint, path style and region', () => {
    expect(
      loadConfig({ BLOB_STORE: 's3://portal-files/prod/items/', S3_ENDPOINT: 'http://127.0.0.1:7480/', S3_FORCE_PATH_STYLE: 'on', AWS_REGION: 'eu-west-1' })
        .blobStore,
    ).toEqual({ kind: 's3', bucket: 'portal-files', prefix: 'prod/items/', endpoint: 'http://127.0.0.1:7480', region: 'eu-west-1', forcePathStyle: true });
    expect(loadConfig({ BLOB_STORE: 's3://portal-files' }).blobStore).toEqual({
      kind: 's3',
      bucket: 'portal-files',
      prefix: '',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
  });

  it('refuses what is not a bucket, a prefix that climbs, an endpoint with a path, and an endpoint without a bucket', () => {
    for (const bad of ['s3://', 's3://Upper', 's3://a', 'gs://bucket', 's3://bucket/../x', '/var/files']) {
      expect(refusal({ BLOB_STORE: bad })).toContain('BLOB_STORE=');
    }
    expect(refusal({ BLOB_STORE: 's3://b-1', S3_ENDPOINT: 'http://127.0.0.1:7480/bucket' })).toContain('S3_ENDPOINT=');
    expect(refusal({ BLOB_STORE: 's3://b-1', AWS_REGION: 'Not a region' })).toContain('AWS_REGION=');
    expect(refusal({ S3_ENDPOINT: 'http://127.0.0.1:7480' })).toContain('BLOB_STORE is not s3://');
  });
});
