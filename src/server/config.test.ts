import { describe, expect, it } from 'vitest';
import { ConfigError, DEMO_PASSWORD, loadConfig } from './config.ts';

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
      allowPrivateOutbound: false,
      passwordLogN: 17,
    });
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
      allowPrivateOutbound: true,
      passwordLogN: 17,
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
