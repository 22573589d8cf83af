// Configuration (docs/architecture.md): validated once; embedded mode generates missing secrets once into
// DATA_DIR (0600); production on PostgreSQL without secrets is a start-up error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  backupSettingsFrom,
  ConfigError,
  DEFAULT_OPENAI_MODEL,
  loadConfig as loadFromEnv,
  MAX_AUDIT_RETENTION_DAYS,
  openAiSettingsFrom,
} from './config.server.ts';

const SECRET = 's'.repeat(40);
const KEY = 'ab'.repeat(32);
const VAPID = {
  VAPID_PUBLIC_KEY: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  VAPID_PRIVATE_KEY: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
};
const PG_URL = 'postgres://app@db.internal:5432/finhub';

const dirs: string[] = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-config-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** loadConfig over exactly these variables (nothing from the real environment). */
const loadConfig = (vars: Record<string, string>) => loadFromEnv(vars as NodeJS.ProcessEnv);

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('TRUST_PROXY is a number of proxy hops (never "trust every X-Forwarded-For entry")', () => {
    const base = { DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY };
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...base, TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    for (const bad of ['yes', '-1', '1.5', '11', 'loopback']) {
      expect(configError({ ...base, TRUST_PROXY: bad }).message, bad).toContain('TRUST_PROXY');
    }
  });

  it('production on PostgreSQL without secrets is a clear start-up error, and writes nothing', () => {
    const dataDir = tempDir();
    const error = configError({ NODE_ENV: 'production', DATABASE_URL: PG_URL, DATA_DIR: dataDir });
    expect(error.message).toContain('SESSION_SECRET');
    expect(error.message).toContain('ENCRYPTION_KEY');
    expect(
      configError({ NODE_ENV: 'production', DATABASE_URL: PG_URL, DATA_DIR: dataDir, SESSION_SECRET: SECRET }).message,
    ).toContain('ENCRYPTION_KEY');
    expect(
      configError({ NODE_ENV: 'production', DATABASE_URL: PG_URL, DATA_DIR: dataDir, ENCRYPTION_KEY: KEY }).message,
    ).toContain('SESSION_SECRET');
    expect(fs.existsSync(path.join(dataDir, 'secrets.json'))).toBe(false);
  });

  it('production on PostgreSQL with both secrets uses them', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: PG_URL,
      SESSION_SECRET: SECRET,
      ENCRYPTION_KEY: KEY,
      DATA_DIR: tempDir(),
    });
    expect(config).toMatchObject({ env: 'production', databaseUrl: PG_URL, sessionSecret: SECRET, encryptionKey: KEY });
  });

  it('embedded mode generates the secrets once, into DATA_DIR/secrets.json with mode 0600, and reuses them', () => {
    const dataDir = path.join(tempDir(), 'nested', 'data');
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'secrets.json');
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(first.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(first.sessionSecret).not.toBe(first.encryptionKey);
    const stored = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(stored)).toEqual({
      SESSION_SECRET: first.sessionSecret,
      ENCRYPTION_KEY: first.encryptionKey,
      VAPID_PUBLIC_KEY: first.push.vapid!.publicKey,
      VAPID_PRIVATE_KEY: first.push.vapid!.privateKey,
    });

    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.sessionSecret).toBe(first.sessionSecret);
    expect(second.encryptionKey).toBe(first.encryptionKey);
    expect(second.push.vapid).toEqual(first.push.vapid);
    expect(fs.readFileSync(file, 'utf8')).toBe(stored);

    // Production without PostgreSQL is embedded too: it reuses the same file.
    expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir }).sessionSecret).toBe(first.sessionSecret);
  });

  it('given secrets win over stored ones, and only missing ones are generated', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    expect(config.sessionSecret).toBe(SECRET);
    const stored = JSON.parse(fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8'));
    expect(Object.keys(stored).sort()).toEqual(['ENCRYPTION_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_PUBLIC_KEY']);
    expect(config.encryptionKey).toBe(stored.ENCRYPTION_KEY);

    const all = tempDir();
    const given = loadConfig({ DATA_DIR: all, SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY, ...VAPID });
    expect(fs.existsSync(path.join(all, 'secrets.json'))).toBe(false);
    expect(given.push.vapid).toEqual({
      publicKey: VAPID.VAPID_PUBLIC_KEY,
      privateKey: VAPID.VAPID_PRIVATE_KEY,
      subject: 'mailto:admin@example.com',
    });
  });

  it('push: VAPID keys given (both or neither, well-formed), generated outside production, off in production on PostgreSQL without them', () => {
    const base = { DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY };
    const generated = loadConfig(base).push;
    expect(Buffer.from(generated.vapid!.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(generated.vapid!.privateKey, 'base64url')).toHaveLength(32);
    expect(generated.allowPrivateTargets).toBe(false);
    expect(loadConfig({ ...base, OWNER_EMAIL: 'cfo@example.com' }).push.vapid!.subject).toBe('mailto:cfo@example.com');
    expect(loadConfig({ ...base, ...VAPID, VAPID_SUBJECT: 'https://finance.example.com' }).push.vapid!.subject).toBe(
      'https://finance.example.com',
    );
    expect(loadConfig({ ...base, ALLOW_PRIVATE_TARGETS: '1' }).push.allowPrivateTargets).toBe(true);

    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: PG_URL,
      SESSION_SECRET: SECRET,
      ENCRYPTION_KEY: KEY,
      DATA_DIR: tempDir(),
    };
    expect(loadConfig(production).push.vapid).toBeNull();
    expect(fs.existsSync(path.join(production.DATA_DIR, 'secrets.json'))).toBe(false);
    expect(loadConfig({ ...production, ...VAPID }).push.vapid?.publicKey).toBe(VAPID.VAPID_PUBLIC_KEY);

    expect(configError({ ...base, VAPID_PUBLIC_KEY: VAPID.VAPID_PUBLIC_KEY }).message).toContain('VAPID_PRIVATE_KEY');
    expect(configError({ ...base, ...VAPID, VAPID_PUBLIC_KEY: 'short' }).message).toContain('VAPID_PUBLIC_KEY');
    expect(configError({ ...base, ...VAPID, VAPID_PRIVATE_KEY: 'not+base64url' }).message).toContain(
      'VAPID_PRIVATE_KEY',
    );
    expect(configError({ ...base, ...VAPID, VAPID_SUBJECT: 'admin@example.com' }).message).toContain('VAPID_SUBJECT');
    expect(configError({ ...base, ALLOW_PRIVATE_TARGETS: 'yes' }).message).toContain('ALLOW_PRIVATE_TARGETS');
  });

  it('has sensible defaults', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY });
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      databaseUrl: undefined,
      dataDir: path.resolve(dataDir),
      backupDir: path.join(path.resolve(dataDir), 'backups'),
      seedDemo: true,
      trustProxy: 0,
      openai: null,
    });
    // Empty values count as unset.
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        SESSION_SECRET: SECRET,
        ENCRYPTION_KEY: KEY,
        DATABASE_URL: '',
        OPENAI_API_KEY: '',
      }).databaseUrl,
    ).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY, SEED_DEMO: '0', PORT: '8080' }),
    ).toMatchObject({
      seedDemo: false,
      port: 8080,
    });
  });

  it('has job settings with defaults, read from PGBOSS_SCHEMA, EMBEDDED_JOBS and WORKER_*', () => {
    const base = { DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY };
    expect(loadConfig(base).jobs).toEqual({
      pgbossSchema: 'pgboss',
      embedded: true,
      worker: { pollingSeconds: 2, superviseSeconds: 60, concurrency: 1, stopTimeoutSeconds: 30, schedules: true },
    });
    const set = loadConfig({
      ...base,
      PGBOSS_SCHEMA: 'pgboss_test_01',
      EMBEDDED_JOBS: '0',
      WORKER_POLLING_SECONDS: '0.5',
      WORKER_SUPERVISE_SECONDS: '1',
      WORKER_CONCURRENCY: '4',
      WORKER_STOP_TIMEOUT_SECONDS: '10',
      WORKER_SCHEDULES: '0',
    });
    expect(set.jobs).toEqual({
      pgbossSchema: 'pgboss_test_01',
      embedded: false,
      worker: { pollingSeconds: 0.5, superviseSeconds: 1, concurrency: 4, stopTimeoutSeconds: 10, schedules: false },
    });
    expect(loadConfig({ ...base, EMBEDDED_JOBS: 'true', WORKER_SCHEDULES: '1' }).jobs).toMatchObject({
      embedded: true,
      worker: { schedules: true },
    });
    // Empty values count as unset.
    const empty = loadConfig({
      ...base,
      PGBOSS_SCHEMA: '',
      EMBEDDED_JOBS: '',
      WORKER_POLLING_SECONDS: '',
      WORKER_SCHEDULES: '',
    });
    expect(empty.jobs).toMatchObject({
      pgbossSchema: 'pgboss',
      embedded: true,
      worker: { pollingSeconds: 2, schedules: true },
    });
  });

  it.each([
    ['PGBOSS_SCHEMA', 'pg-boss', 'plain SQL identifier'],
    ['PGBOSS_SCHEMA', 'jobs; drop table users', 'plain SQL identifier'],
    ['PGBOSS_SCHEMA', '1jobs', 'plain SQL identifier'],
    ['PGBOSS_SCHEMA', 'PgBoss', 'plain SQL identifier'],
    ['PGBOSS_SCHEMA', 'x'.repeat(51), 'plain SQL identifier'],
    ['EMBEDDED_JOBS', 'off', 'must be 0 or 1'],
    ['WORKER_SCHEDULES', 'no', 'must be 0 or 1'],
    ['WORKER_POLLING_SECONDS', '0.1', 'at least 0.5'],
    ['WORKER_POLLING_SECONDS', 'soon', 'at least 0.5'],
    ['WORKER_SUPERVISE_SECONDS', '0', 'at least 1'],
    ['WORKER_CONCURRENCY', '0', 'a whole number of at least 1'],
    ['WORKER_CONCURRENCY', '1.5', 'a whole number of at least 1'],
    ['WORKER_STOP_TIMEOUT_SECONDS', '-1', 'at least 0'],
  ])('rejects job setting %s=%s with a clear message', (name, value, text) => {
    const error = configError({ DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY, [name]: value });
    expect(error.message).toContain(`${name} must be`);
    expect(error.message).toContain(text);
  });

  it('SHUTDOWN_DRAIN_SECONDS: 0 unless set, never negative', () => {
    const base = { DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY };
    expect(loadConfig(base).shutdownDrainSeconds).toBe(0);
    expect(loadConfig({ ...base, SHUTDOWN_DRAIN_SECONDS: '2.5' }).shutdownDrainSeconds).toBe(2.5);
    expect(configError({ ...base, SHUTDOWN_DRAIN_SECONDS: '-1' }).message).toContain(
      'SHUTDOWN_DRAIN_SECONDS must be a number of at least 0',
    );
  });

  it('AUDIT_RETENTION_DAYS: unset or empty keeps the audit trail forever (null), else a whole number of days', () => {
    const base = { DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY };
    expect(loadConfig(base).auditRetentionDays).toBeNull();
    expect(loadConfig({ ...base, AUDIT_RETENTION_DAYS: '' }).auditRetentionDays).toBeNull();
    expect(loadConfig({ ...base, AUDIT_RETENTION_DAYS: ' 365 ' }).auditRetentionDays).toBe(365);
    expect(loadConfig({ ...base, AUDIT_RETENTION_DAYS: '1' }).auditRetentionDays).toBe(1);
    expect(loadConfig({ ...base, AUDIT_RETENTION_DAYS: String(MAX_AUDIT_RETENTION_DAYS) }).auditRetentionDays).toBe(
      MAX_AUDIT_RETENTION_DAYS,
    );
    for (const bad of ['0', '-30', '1.5', '30d', 'forever', '1e3', String(MAX_AUDIT_RETENTION_DAYS + 1)]) {
      expect(configError({ ...base, AUDIT_RETENTION_DAYS: bad }).message, bad).toContain(
        'AUDIT_RETENTION_DAYS must be a whole number of days',
      );
    }
  });

  it('backups: BACKUP_DIR (default DATA_DIR/backups), BACKUP_SCHEDULE (cron, daily 02:00) and BACKUP_KEEP (14)', () => {
    const dataDir = tempDir();
    const base = { DATA_DIR: dataDir, SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY };
    expect(loadConfig(base).backups).toEqual({ dir: path.join(dataDir, 'backups'), schedule: '0 2 * * *', keep: 14 });
    expect(
      loadConfig({ ...base, BACKUP_DIR: '/srv/backups', BACKUP_SCHEDULE: '30 1 * * 0', BACKUP_KEEP: '30' }).backups,
    ).toEqual({ dir: '/srv/backups', schedule: '30 1 * * 0', keep: 30 });
    expect(configError({ ...base, BACKUP_SCHEDULE: 'daily' }).message).toContain(
      'BACKUP_SCHEDULE must be a cron expression',
    );
    expect(configError({ ...base, BACKUP_KEEP: '0' }).message).toContain(
      'BACKUP_KEEP must be a whole number of at least 1',
    );
    // The same settings from the environment alone (tests and scripts outside loadConfig).
    expect(backupSettingsFrom({ DATA_DIR: dataDir, BACKUP_KEEP: '3' })).toEqual({
      dir: path.join(dataDir, 'backups'),
      schedule: '0 2 * * *',
      keep: 3,
    });
  });

  it('turns the language model on only with OPENAI_API_KEY, with the default model unless named', () => {
    expect(openAiSettingsFrom({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' })).toBeNull();
    expect(openAiSettingsFrom({ OPENAI_API_KEY: 'sk-test' })).toEqual({
      apiKey: 'sk-test',
      model: DEFAULT_OPENAI_MODEL,
    });
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        SESSION_SECRET: SECRET,
        ENCRYPTION_KEY: KEY,
        OPENAI_API_KEY: ' sk-x ',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        OPENAI_MODEL: 'local',
      }).openai,
    ).toEqual({ apiKey: 'sk-x', baseUrl: 'http://127.0.0.1:9/v1', model: 'local' });
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['NODE_ENV', 'staging'],
    ['DATABASE_URL', 'mysql://root@localhost/finhub'],
    ['SESSION_SECRET', 'too-short'],
    ['ENCRYPTION_KEY', 'not-hex-'.repeat(8)],
    ['ENCRYPTION_KEY', 'ab'.repeat(16)],
    ['OPENAI_BASE_URL', 'not a url'],
    ['OWNER_EMAIL', 'owner-at-example'],
    ['OWNER_PASSWORD', 'short'],
    ['SEED_DEMO', 'maybe'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    const error = configError({ DATA_DIR: tempDir(), SESSION_SECRET: SECRET, ENCRYPTION_KEY: KEY, [name]: value });
    expect(error.message).toContain(name);
  });
});
