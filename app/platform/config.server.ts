// Environment, validated once at start. In embedded mode missing secrets are generated once
// and kept in DATA_DIR/secrets.json (0600); in production on PostgreSQL they must be given.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** 100 years: beyond it a cut-off date stops being meaningful (and Date arithmetic overflows far later). */
export const MAX_AUDIT_RETENTION_DAYS = 36_500;

const SWITCH_VALUES = ['0', '1', 'true', 'false'];
/** An on/off switch ('0', '1', 'true', 'false'); empty counts as unset. */
const onOff = (name: string, fallback: boolean) =>
  optional
    .refine((v) => v === undefined || SWITCH_VALUES.includes(v), { message: `${name} must be 0 or 1` })
    .transform((v) => (v === undefined ? fallback : v === '1' || v === 'true'));

/** A number at least `min` (a whole one when `integer`); empty counts as unset. */
const numberAtLeast = (name: string, min: number, fallback: number, integer = false) =>
  optional
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .refine((n) => Number.isFinite(n) && n >= min && (!integer || Number.isInteger(n)), {
      message: `${name} must be ${integer ? 'a whole number' : 'a number'} of at least ${min}`,
    });

/** Days the audit trail is kept (`AUDIT_RETENTION_DAYS`); unset or empty: forever (null). */
const auditRetentionDays = optional
  .refine((v) => v === undefined || (/^\d{1,6}$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_AUDIT_RETENTION_DAYS), {
    message: `AUDIT_RETENTION_DAYS must be a whole number of days from 1 to ${MAX_AUDIT_RETENTION_DAYS} (leave it empty to keep the audit trail forever)`,
  })
  .transform((v) => (v === undefined ? null : Number(v)));

/** When the scheduled backup runs unless BACKUP_SCHEDULE says otherwise: daily at 02:00 UTC. */
export const DEFAULT_BACKUP_SCHEDULE = '0 2 * * *';
/** Five cron fields: minute hour day month weekday. */
export const CRON_FIELDS = /^(\S+\s+){4}\S+$/;

/** A five-field cron expression (minute hour day month weekday), UTC. */
const cron = (name: string, fallback: string) =>
  optional
    .refine((v) => v === undefined || CRON_FIELDS.test(v), {
      message: `${name} must be a cron expression of five fields (minute hour day month weekday), e.g. '0 2 * * *'`,
    })
    .transform((v) => v ?? fallback);

/** Backup settings, read by loadConfig and alone by backupSettingsFrom. */
const BackupEnv = z.object({
  DATA_DIR: z.string().default('./data'),
  BACKUP_DIR: optional,
  // Scheduled backups: daily at 02:00 UTC unless told otherwise; the last BACKUP_KEEP are kept.
  BACKUP_SCHEDULE: cron('BACKUP_SCHEDULE', DEFAULT_BACKUP_SCHEDULE),
  BACKUP_KEEP: numberAtLeast('BACKUP_KEEP', 1, 14, true),
});

export interface BackupSettings {
  /** Where backup files are written (`BACKUP_DIR`, default DATA_DIR/backups). */
  dir: string;
  /** When the scheduled backup runs (`BACKUP_SCHEDULE`, cron, UTC). */
  schedule: string;
  /** How many scheduled backups are kept (`BACKUP_KEEP`, default 14); older ones are deleted. */
  keep: number;
}

export function backupSettingsFrom(source: Record<string, string | undefined> = process.env): BackupSettings {
  const parsed = BackupEnv.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const env = parsed.data;
  return {
    dir: path.resolve(env.BACKUP_DIR ?? path.join(path.resolve(env.DATA_DIR), 'backups')),
    schedule: env.BACKUP_SCHEDULE,
    keep: env.BACKUP_KEEP,
  };
}

/**
 * The language model of the AI layer (docs/decisions.md): only with `OPENAI_API_KEY`; `OPENAI_BASE_URL`
 * points it at an OpenAI-compatible server. null: the AI answers offline.
 */
export interface OpenAiSettings {
  apiKey: string;
  baseUrl?: string;
  model: string;
}

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

const OpenAiEnv = z.object({
  OPENAI_API_KEY: optional,
  OPENAI_BASE_URL: optional.refine((v) => !v || URL.canParse(v), { message: 'OPENAI_BASE_URL must be a URL' }),
  OPENAI_MODEL: optional,
});

export function openAiSettingsFrom(source: Record<string, string | undefined> = process.env): OpenAiSettings | null {
  const parsed = OpenAiEnv.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const env = parsed.data;
  if (!env.OPENAI_API_KEY) return null;
  return {
    apiKey: env.OPENAI_API_KEY,
    ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
    model: env.OPENAI_MODEL ?? DEFAULT_OPENAI_MODEL,
  };
}

/**
 * Integration syncs (docs/security.md, docs/decisions.md): the keys credentials are sealed under (ENCRYPTION_KEY first,
 * then PREVIOUS_ENCRYPTION_KEY while a rotation is pending) and the limits of outbound requests.
 */
export interface IntegrationSettings {
  keys: string[];
  allowPrivateTargets: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

const hexKey = (name: string) =>
  optional.refine((v) => !v || /^[0-9a-fA-F]{64}$/.test(v), {
    message: `${name} must be 64 hexadecimal characters (32 bytes)`,
  });

const IntegrationEnv = z.object({
  NODE_ENV: z.string().optional(),
  DATABASE_URL: optional,
  DATA_DIR: z.string().default('./data'),
  ENCRYPTION_KEY: hexKey('ENCRYPTION_KEY'),
  PREVIOUS_ENCRYPTION_KEY: hexKey('PREVIOUS_ENCRYPTION_KEY'),
  ALLOW_PRIVATE_TARGETS: onOff('ALLOW_PRIVATE_TARGETS', false),
  INTEGRATION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(100, 'INTEGRATION_TIMEOUT_MS must be at least 100')
    .max(300_000)
    .default(15_000),
  INTEGRATION_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1_073_741_824)
    .default(10 * 1024 * 1024),
});

export function integrationSettingsFrom(source: Record<string, string | undefined> = process.env): IntegrationSettings {
  const parsed = IntegrationEnv.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const env = parsed.data;
  let current = env.ENCRYPTION_KEY;
  if (!current) {
    if (env.NODE_ENV === 'production' && env.DATABASE_URL)
      throw new ConfigError('Missing required secret for production: ENCRYPTION_KEY.');
    current = loadOrCreateSecrets(path.resolve(env.DATA_DIR), ['ENCRYPTION_KEY']).ENCRYPTION_KEY!;
  }
  const keys = [current, env.PREVIOUS_ENCRYPTION_KEY].filter((k): k is string => !!k).map((k) => k.toLowerCase());
  return {
    keys: [...new Set(keys)],
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    timeoutMs: env.INTEGRATION_TIMEOUT_MS,
    maxResponseBytes: env.INTEGRATION_MAX_RESPONSE_BYTES,
  };
}

/** Web Push (docs/security.md, docs/jobs.md): the VAPID key pair and whether private addresses may be targets. */
export interface PushSettings {
  /** null: push is not configured (production without VAPID_* keys). */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /** `ALLOW_PRIVATE_TARGETS=1`: http and loopback/private addresses allowed (tests, closed networks). */
  allowPrivateTargets: boolean;
}

const base64url = (bytes: number) => (v: string | undefined) =>
  !v || (/^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, 'base64url').length === bytes);

const PushEnv = z
  .object({
    NODE_ENV: z.string().optional(),
    DATABASE_URL: optional,
    DATA_DIR: z.string().default('./data'),
    OWNER_EMAIL: optional,
    VAPID_PUBLIC_KEY: optional.refine(base64url(65), {
      message:
        'VAPID_PUBLIC_KEY must be an uncompressed P-256 public key in URL-safe base64 (65 bytes), as web-push generate-vapid-keys prints it',
    }),
    VAPID_PRIVATE_KEY: optional.refine(base64url(32), {
      message: 'VAPID_PRIVATE_KEY must be a P-256 private key in URL-safe base64 (32 bytes)',
    }),
    VAPID_SUBJECT: optional.refine((v) => !v || /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(v), {
      message: 'VAPID_SUBJECT must be a mailto: address or an https: URL',
    }),
    ALLOW_PRIVATE_TARGETS: onOff('ALLOW_PRIVATE_TARGETS', false),
  })
  .refine((env) => !env.VAPID_PUBLIC_KEY === !env.VAPID_PRIVATE_KEY, {
    message: 'Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither',
    path: ['VAPID_PUBLIC_KEY'],
  });

/**
 * Push settings from the environment: the VAPID keys given, or (outside production on
 * PostgreSQL) a pair generated once and kept in DATA_DIR/secrets.json beside the other
 * generated secrets, so the web process and workers of one installation sign alike.
 */
export function pushSettingsFrom(source: Record<string, string | undefined> = process.env): PushSettings {
  const parsed = PushEnv.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      `Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  const env = parsed.data;
  const subject = env.VAPID_SUBJECT ?? (env.OWNER_EMAIL ? `mailto:${env.OWNER_EMAIL}` : 'mailto:admin@example.com');
  let vapid: PushSettings['vapid'] = null;
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    vapid = { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  } else if (!(env.NODE_ENV === 'production' && env.DATABASE_URL)) {
    const stored = loadOrCreateSecrets(path.resolve(env.DATA_DIR), ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']);
    vapid = { publicKey: stored.VAPID_PUBLIC_KEY!, privateKey: stored.VAPID_PRIVATE_KEY!, subject };
  }
  return { vapid, allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS };
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: optional.refine((v) => !v || /^postgres(ql)?:\/\//.test(v), {
    message: 'DATABASE_URL must be a postgres:// URL (leave it empty for the embedded SQLite database)',
  }),
  DATA_DIR: z.string().default('./data'),
  BACKUP_DIR: optional,
  BACKUP_SCHEDULE: BackupEnv.shape.BACKUP_SCHEDULE,
  BACKUP_KEEP: BackupEnv.shape.BACKUP_KEEP,
  SESSION_SECRET: optional.refine((v) => !v || v.length >= 32, {
    message: 'SESSION_SECRET must be at least 32 characters',
  }),
  ENCRYPTION_KEY: optional.refine((v) => !v || /^[0-9a-fA-F]{64}$/.test(v), {
    message: 'ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes)',
  }),
  PREVIOUS_ENCRYPTION_KEY: IntegrationEnv.shape.PREVIOUS_ENCRYPTION_KEY,
  INTEGRATION_TIMEOUT_MS: IntegrationEnv.shape.INTEGRATION_TIMEOUT_MS,
  INTEGRATION_MAX_RESPONSE_BYTES: IntegrationEnv.shape.INTEGRATION_MAX_RESPONSE_BYTES,
  VAPID_PUBLIC_KEY: optional,
  VAPID_PRIVATE_KEY: optional,
  VAPID_SUBJECT: optional,
  ALLOW_PRIVATE_TARGETS: optional,
  OPENAI_API_KEY: OpenAiEnv.shape.OPENAI_API_KEY,
  OPENAI_BASE_URL: OpenAiEnv.shape.OPENAI_BASE_URL,
  OPENAI_MODEL: OpenAiEnv.shape.OPENAI_MODEL,
  OWNER_EMAIL: optional.refine((v) => !v || z.email().safeParse(v).success, {
    message: 'OWNER_EMAIL must be an e-mail address',
  }),
  OWNER_PASSWORD: optional.refine((v) => !v || v.length >= 8, {
    message: 'OWNER_PASSWORD must be at least 8 characters',
  }),
  SEED_DEMO: z
    .enum(['0', '1', 'true', 'false'])
    .default('1')
    .transform((v) => v === '1' || v === 'true'),
  // The number of reverse proxies in front of the app (0: none). Express then takes the client
  // address that many hops from the right of X-Forwarded-For: the leftmost entries are whatever
  // the client sent. 'true'/'false' are kept as aliases of 1 and 0.
  TRUST_PROXY: z
    .string()
    .trim()
    .default('0')
    .transform((v) => (v === '' || v === 'false' ? '0' : v === 'true' ? '1' : v))
    .pipe(z.string().regex(/^\d{1,2}$/, 'TRUST_PROXY must be the number of proxy hops in front of the app (0-10)'))
    .transform(Number)
    .pipe(z.number().int().min(0, 'TRUST_PROXY must be at least 0').max(10, 'TRUST_PROXY must be at most 10')),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(100),
  API_RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(1000),
  // Background jobs (docs/jobs.md). pg-boss puts the schema name into SQL unquoted.
  PGBOSS_SCHEMA: optional
    .transform((v) => v ?? 'pgboss')
    .refine((v) => /^[a-z_][a-z0-9_]{0,49}$/.test(v), {
      message:
        'PGBOSS_SCHEMA must be a plain SQL identifier: lowercase letters, digits and _, not starting with a digit, at most 50 characters',
    }),
  EMBEDDED_JOBS: onOff('EMBEDDED_JOBS', true),
  PSEUDO_LOCALE: onOff('PSEUDO_LOCALE', false),
  WORKER_POLLING_SECONDS: numberAtLeast('WORKER_POLLING_SECONDS', 0.5, 2),
  WORKER_SUPERVISE_SECONDS: numberAtLeast('WORKER_SUPERVISE_SECONDS', 1, 60),
  WORKER_CONCURRENCY: numberAtLeast('WORKER_CONCURRENCY', 1, 1, true),
  WORKER_STOP_TIMEOUT_SECONDS: numberAtLeast('WORKER_STOP_TIMEOUT_SECONDS', 0, 30),
  WORKER_SCHEDULES: onOff('WORKER_SCHEDULES', true),
  // Request bodies above this answer 413 before they are read (1 MB).
  MAX_BODY_BYTES: numberAtLeast('MAX_BODY_BYTES', 1024, 1024 * 1024, true),
  // CSV imports (docs/imports.md): their own upload limit (200 MB), and the size up to which
  // the process that receives a file checks and writes it itself (1 MB) instead of a job.
  IMPORT_MAX_BYTES: numberAtLeast('IMPORT_MAX_BYTES', 1024, 200 * 1024 * 1024, true),
  IMPORT_INLINE_BYTES: numberAtLeast('IMPORT_INLINE_BYTES', 0, 1024 * 1024, true),
  SHUTDOWN_DRAIN_SECONDS: numberAtLeast('SHUTDOWN_DRAIN_SECONDS', 0, 0),
  // The nightly audit-retention job prunes audit entries (and versions of deleted
  // records) older than this many days; unset keeps everything.
  AUDIT_RETENTION_DAYS: auditRetentionDays,
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  backupDir: string;
  backups: BackupSettings;
  sessionSecret: string;
  encryptionKey: string;
  /** Web Push keys and outbound-target policy (`VAPID_*`, `ALLOW_PRIVATE_TARGETS`). */
  push: PushSettings;
  /** Credential keys and outbound limits of integration syncs. */
  integrations: IntegrationSettings;
  /** The language model (`OPENAI_*`); null: offline AI. */
  openai: OpenAiSettings | null;
  owner: { email?: string; password?: string };
  seedDemo: boolean;
  /**
   * Tests only (`PSEUDO_LOCALE=1`): a page requested with `X-Pseudo-Locale: 1` shows every
   * message marked ⟦…⟧, so a walk of the screens finds text that is not in a catalog.
   */
  pseudoLocale: boolean;
  /** Trusted reverse-proxy hops in front of the app (0: none; X-Forwarded-* are then ignored). */
  trustProxy: number;
  /** Requests per user: burst per minute and per hour (100 and 1000, docs/api.md). */
  apiRateLimits: { perMinute: number; perHour: number };
  /** Largest accepted request body in bytes (`MAX_BODY_BYTES`, default 1 MB): above, 413. */
  maxBodyBytes: number;
  /** CSV imports: the largest file (`IMPORT_MAX_BYTES`) and the largest run without a job (`IMPORT_INLINE_BYTES`). */
  imports: { maxBytes: number; inlineBytes: number };
  /**
   * On SIGTERM, how long `/readyz` answers 503 while requests are still served, before the
   * process stops accepting connections (`SHUTDOWN_DRAIN_SECONDS`, default 0): behind a load
   * balancer, long enough for its health checks to take the process out first.
   */
  shutdownDrainSeconds: number;
  /**
   * Days audit entries and versions of deleted records are kept (`AUDIT_RETENTION_DAYS`); null
   * (unset): forever. Versions of records that still exist are never pruned.
   */
  auditRetentionDays: number | null;
  jobs: JobsConfig;
}

export interface JobsConfig {
  /** pg-boss schema on PostgreSQL (`PGBOSS_SCHEMA`, default `pgboss`). */
  pgbossSchema: string;
  /** SQLite: the web process hosts and works the job engine (`EMBEDDED_JOBS=0` turns it off). */
  embedded: boolean;
  /** `npm run worker` (PostgreSQL) tuning. */
  worker: {
    /** How often each queue is polled for new jobs (`WORKER_POLLING_SECONDS`). */
    pollingSeconds: number;
    /** How often expired active jobs are failed/retried (`WORKER_SUPERVISE_SECONDS`). */
    superviseSeconds: number;
    /** Handlers of one queue running at once in one worker (`WORKER_CONCURRENCY`). */
    concurrency: number;
    /** On SIGTERM, the longest wait for running handlers (`WORKER_STOP_TIMEOUT_SECONDS`). */
    stopTimeoutSeconds: number;
    /** Create the cron schedules (`WORKER_SCHEDULES=0`: this worker only works queued jobs). */
    schedules: boolean;
  };
}

export class ConfigError extends Error {}

interface StoredSecrets {
  SESSION_SECRET?: string;
  ENCRYPTION_KEY?: string;
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
}

function loadOrCreateSecrets(dataDir: string, needed: (keyof StoredSecrets)[]): StoredSecrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: StoredSecrets = {};
  if (fs.existsSync(file)) {
    try {
      stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      throw new ConfigError(`${file} is not valid JSON: fix or remove it (removing it signs everybody out).`);
    }
  }
  let changed = false;
  // The VAPID keys are a pair: generated together.
  if (needed.includes('VAPID_PUBLIC_KEY') && (!stored.VAPID_PUBLIC_KEY || !stored.VAPID_PRIVATE_KEY)) {
    const pair = webpush.generateVAPIDKeys();
    stored.VAPID_PUBLIC_KEY = pair.publicKey;
    stored.VAPID_PRIVATE_KEY = pair.privateKey;
    changed = true;
  }
  for (const key of needed) {
    if (!stored[key]) {
      stored[key] = crypto.randomBytes(32).toString('hex');
      changed = true;
    }
  }
  if (changed) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return stored;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const production = env.NODE_ENV === 'production' && !!env.DATABASE_URL;
  const missing = (['SESSION_SECRET', 'ENCRYPTION_KEY'] as const).filter((k) => !env[k]);
  if (production && missing.length) {
    throw new ConfigError(
      `Missing required secret(s) for production: ${missing.join(', ')}. ` +
        'Set them in the environment (for example: openssl rand -hex 32).',
    );
  }
  const generated = missing.length ? loadOrCreateSecrets(dataDir, [...missing]) : {};
  const push = pushSettingsFrom({ ...source, DATA_DIR: dataDir });
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir,
    backupDir: path.resolve(env.BACKUP_DIR ?? path.join(dataDir, 'backups')),
    backups: {
      dir: path.resolve(env.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      schedule: env.BACKUP_SCHEDULE,
      keep: env.BACKUP_KEEP,
    },
    sessionSecret: env.SESSION_SECRET ?? generated.SESSION_SECRET!,
    encryptionKey: env.ENCRYPTION_KEY ?? generated.ENCRYPTION_KEY!,
    push,
    integrations: integrationSettingsFrom({
      ...source,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: env.ENCRYPTION_KEY ?? generated.ENCRYPTION_KEY,
    }),
    openai: openAiSettingsFrom(source),
    owner: { email: env.OWNER_EMAIL, password: env.OWNER_PASSWORD },
    apiRateLimits: { perMinute: env.API_RATE_LIMIT_PER_MINUTE, perHour: env.API_RATE_LIMIT_PER_HOUR },
    seedDemo: env.SEED_DEMO,
    pseudoLocale: env.PSEUDO_LOCALE,
    trustProxy: env.TRUST_PROXY,
    maxBodyBytes: env.MAX_BODY_BYTES,
    imports: { maxBytes: env.IMPORT_MAX_BYTES, inlineBytes: env.IMPORT_INLINE_BYTES },
    shutdownDrainSeconds: env.SHUTDOWN_DRAIN_SECONDS,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
    jobs: {
      pgbossSchema: env.PGBOSS_SCHEMA,
      embedded: env.EMBEDDED_JOBS,
      worker: {
        pollingSeconds: env.WORKER_POLLING_SECONDS,
        superviseSeconds: env.WORKER_SUPERVISE_SECONDS,
        concurrency: env.WORKER_CONCURRENCY,
        stopTimeoutSeconds: env.WORKER_STOP_TIMEOUT_SECONDS,
        schedules: env.WORKER_SCHEDULES,
      },
    },
  };
}
