// Real facts for the Settings page's System tab and its downloadable report (docs/decisions.md):
// the app version, the database (dialect, server version, reachability) and the job engine.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { dialectOf } from '../../../db/dialect.ts';
import { requirePermission, requireUser, type Db, type ServiceContext } from '../../platform/context.ts';
import { getUserSettings } from '../settings/index.server.ts';
import { msg } from '../../platform/i18n/messages.ts';

/**
 * package.json, read rather than imported: Node runs these sources directly (the CLI, the
 * worker, server.ts through the backup jobs) and refuses a JSON import without
 * `with { type: 'json' }`, which the Remix compiler (esbuild 0.17) cannot parse. Looked up from
 * this file: in the sources and in the bundle (build/index.js) alike.
 */
function readPackage(): { name: string; version: string } {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'group-finance-hub' && pkg.version) return { name: pkg.name, version: pkg.version };
    }
    if (path.dirname(dir) === dir) return { name: 'group-finance-hub', version: '0.0.0' };
  }
}

const packageJson = readPackage();

export const APP_VERSION: string = packageJson.version;
/** A worker writes a health snapshot every minute; older than this means none is running. */
const WORKER_SILENCE_MS = 5 * 60_000;

export interface StatusItem {
  name: string;
  status: 'ok' | 'warning' | 'error';
  label: string;
  /** In English, as the report states it. */
  detail: string;
  /**
   * The detail as the screens say it in the reader's language: a message of this area's catalog
   * and its values; `time` is an instant (ISO) and `latency` a number, spelled in the reader's formats.
   */
  said: { message: string; values?: Record<string, string | number> };
}

export interface SystemFacts {
  version: string;
  environment: string;
  node: string;
  database: { dialect: string; serverVersion: string | null; reachable: boolean; latencyMs: number | null };
  statuses: StatusItem[];
  checkedAt: string;
}

async function databaseFacts(db: Db) {
  const dialect = dialectOf(db);
  const started = performance.now();
  try {
    const query =
      dialect === 'postgres'
        ? sql<{ v: string }>`select current_setting('server_version') as v`
        : sql<{ v: string }>`select sqlite_version() as v`;
    const { rows } = await query.execute(db);
    return {
      dialect,
      serverVersion: rows[0]?.v ?? null,
      reachable: true,
      latencyMs: Math.round((performance.now() - started) * 10) / 10,
    };
  } catch {
    return { dialect, serverVersion: null, reachable: false, latencyMs: null };
  }
}

async function jobStatus(ctx: ServiceContext, dialect: string): Promise<StatusItem> {
  const { db } = ctx;
  const engine = ctx.runtime.jobs.engine;
  if (engine) {
    return {
      name: msg('Job engine'),
      status: 'ok',
      label: msg('Running'),
      detail: `pg-boss ${engine.mode === 'embedded' ? 'on embedded PGlite, inside the web process' : 'on PostgreSQL'}`,
      said: {
        message:
          engine.mode === 'embedded'
            ? msg('pg-boss on embedded PGlite, inside the web process')
            : msg('pg-boss on PostgreSQL'),
      },
    };
  }
  const last = await db
    .selectFrom('healthSnapshots')
    .select('createdAt')
    .orderBy('createdAt', 'desc')
    .limit(1)
    .executeTakeFirst()
    .catch(() => undefined);
  const seen = last ? Date.parse(last.createdAt) : NaN;
  if (Number.isFinite(seen) && Date.now() - seen < WORKER_SILENCE_MS) {
    return {
      name: msg('Job engine'),
      status: 'ok',
      label: msg('Running'),
      detail: `Workers active (last health snapshot ${new Date(seen).toISOString()})`,
      said: {
        message: msg('Workers active (last health snapshot {time})'),
        values: { time: new Date(seen).toISOString() },
      },
    };
  }
  const detail =
    dialect === 'postgres'
      ? msg('No worker has reported in the last 5 minutes (start one with `npm run worker`)')
      : msg('The embedded job engine is not running in this process');
  return { name: msg('Job engine'), status: 'warning', label: msg('Not seen'), detail, said: { message: detail } };
}

/** What the System tab shows. Any signed-in user may read it (it holds no secrets). `environment`: the configuration's NODE_ENV. */
export async function getSystemFacts(ctx: ServiceContext, environment: string): Promise<SystemFacts> {
  const database = await databaseFacts(ctx.db);
  const statuses: StatusItem[] = [
    {
      name: msg('Database'),
      status: database.reachable ? 'ok' : 'error',
      label: database.reachable ? msg('Online') : msg('Unreachable'),
      detail: database.reachable
        ? `${database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'} ${database.serverVersion ?? ''} · ${database.latencyMs} ms`
        : 'The database did not answer',
      said: database.reachable
        ? {
            message: msg('{database} {version} · {latency} ms'),
            values: {
              database: database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite',
              version: database.serverVersion ?? '',
              latency: database.latencyMs ?? 0,
            },
          }
        : { message: msg('The database did not answer') },
    },
    await jobStatus(ctx, database.dialect),
  ];
  return {
    version: APP_VERSION,
    environment,
    node: process.version,
    database,
    statuses,
    checkedAt: new Date().toISOString(),
  };
}

/** A completed backup older than this makes the backup status a warning (the schedule is daily). */
export const BACKUP_STALE_HOURS = 48;
/** Security anomalies this recent make the security status a warning. */
export const SECURITY_WINDOW_DAYS = 7;

async function backupStatus(db: Db, now: Date): Promise<StatusItem> {
  const latest = await db
    .selectFrom('backups')
    .select(['name', 'status', 'createdAt', 'error'])
    .where('status', '!=', 'in_progress')
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const completed =
    latest?.status === 'completed'
      ? latest
      : await db
          .selectFrom('backups')
          .select(['name', 'status', 'createdAt', 'error'])
          .where('status', '=', 'completed')
          .orderBy('createdAt', 'desc')
          .limit(1)
          .executeTakeFirst();
  if (latest?.status === 'failed') {
    return {
      name: msg('Backups'),
      status: 'error',
      label: msg('Failed'),
      detail: `The latest backup (${latest.name}) failed${completed ? `; last good one ${completed.createdAt}` : ''}`,
      said: completed
        ? {
            message: msg('The latest backup ({name}) failed; last good one {time}'),
            values: { name: latest.name, time: completed.createdAt },
          }
        : { message: msg('The latest backup ({name}) failed'), values: { name: latest.name } },
    };
  }
  if (!completed) {
    const detail = msg('No backup has been completed yet');
    return { name: msg('Backups'), status: 'warning', label: msg('None'), detail, said: { message: detail } };
  }
  const hours = (now.getTime() - Date.parse(completed.createdAt)) / 3_600_000;
  if (hours > BACKUP_STALE_HOURS)
    return {
      name: msg('Backups'),
      status: 'warning',
      label: msg('Stale'),
      detail: `Last completed backup ${completed.createdAt} (${Math.floor(hours / 24)} days ago)`,
      said: {
        message: msg(
          '{days, plural, one {Last completed backup {time} (# day ago)} other {Last completed backup {time} (# days ago)}}',
        ),
        values: { time: completed.createdAt, days: Math.floor(hours / 24) },
      },
    };
  return {
    name: msg('Backups'),
    status: 'ok',
    label: msg('Healthy'),
    detail: `Last completed backup ${completed.createdAt}`,
    said: { message: msg('Last completed backup {time}'), values: { time: completed.createdAt } },
  };
}

async function securityStatus(db: Db, now: Date): Promise<StatusItem> {
  const since = new Date(now.getTime() - SECURITY_WINDOW_DAYS * 86_400_000).toISOString();
  const day = new Date(now.getTime() - 86_400_000).toISOString();
  const [anomalies, failedLogins] = await Promise.all([
    db
      .selectFrom('securityAnomalies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('windowEnd', '>=', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('auditLogs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'login_failed')
      .where('timestamp', '>=', day)
      .executeTakeFirstOrThrow(),
  ]);
  const n = Number(anomalies.n);
  const failures = Number(failedLogins.n);
  const failed = `${failures} failed sign-in${failures === 1 ? '' : 's'} in 24 hours`;
  const values = { count: n, days: SECURITY_WINDOW_DAYS, failed: failures };
  if (n > 0)
    return {
      name: msg('Security'),
      status: 'warning',
      label: msg('Review'),
      detail: `${n} security anomal${n === 1 ? 'y' : 'ies'} in ${SECURITY_WINDOW_DAYS} days · ${failed}`,
      said: {
        message: msg(
          '{count, plural, one {# security anomaly} other {# security anomalies}} in {days} days · {failed, plural, one {# failed sign-in} other {# failed sign-ins}} in 24 hours',
        ),
        values,
      },
    };
  return {
    name: msg('Security'),
    status: 'ok',
    label: msg('Secure'),
    detail: `No security anomalies in ${SECURITY_WINDOW_DAYS} days · ${failed}`,
    said: {
      message: msg(
        'No security anomalies in {days} days · {failed, plural, one {# failed sign-in} other {# failed sign-ins}} in 24 hours',
      ),
      values,
    },
  };
}

/** System Settings (owners and admins of every company; 404 to an admin of one): the facts, plus the backup and security statuses. */
export async function getSystemStatus(
  ctx: ServiceContext,
  environment: string,
  now = new Date(),
): Promise<SystemFacts> {
  requirePermission(ctx, 'installation', 'read', { hideOutOfScope: true });
  const [facts, backups, security] = await Promise.all([
    getSystemFacts(ctx, environment),
    backupStatus(ctx.db, now),
    securityStatus(ctx.db, now),
  ]);
  return { ...facts, statuses: [...facts.statuses, backups, security] };
}

/** The Download report JSON: system facts and the user's own settings (no secrets). */
export async function buildSettingsReport(ctx: ServiceContext, environment: string) {
  const user = requireUser(ctx);
  const [system, settings] = await Promise.all([getSystemFacts(ctx, environment), getUserSettings(ctx)]);
  return {
    report: 'Group Finance Hub settings and system report',
    generatedAt: new Date().toISOString(),
    app: { name: packageJson.name, version: system.version, environment: system.environment, node: system.node },
    database: system.database,
    statuses: system.statuses.map(({ name, status, label, detail }) => ({ name, status, label, detail })),
    user: { id: user.id, username: user.username, email: user.email, role: user.role, companyId: user.companyId },
    settings,
  };
}
