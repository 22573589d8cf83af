// Health snapshots for System Monitoring: CPU, memory, disk (the data directory's file system),
// database size and a round-trip time, recorded every minute by the health-snapshot job.
// Snapshots older than 7 days are deleted in the same call.
import fs from 'node:fs/promises';
import os from 'node:os';
import { sql, type Selectable } from 'kysely';
import { dialectOf, toJson } from '../../../db/dialect.ts';
import type { HealthSnapshotsTable } from '../../../db/types.ts';
import { isAdministrator } from '../../platform/lib/permissions.ts';
import { inTransaction, type Db, type ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';

export const SNAPSHOT_RETENTION_DAYS = 7;

export interface CpuTimes {
  idle: number;
  total: number;
}

/** The machine's CPU time counters (since boot): two readings give the busy share between them. */
export function cpuTimes(): CpuTimes {
  let idle = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    idle += cpu.times.idle;
    total += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq + cpu.times.idle;
  }
  return { idle, total };
}

/** Percent of the CPU time between two readings that was busy. */
export function busyPercent(a: CpuTimes, b: CpuTimes): number {
  const total = b.total - a.total;
  return total > 0 ? Math.round(((total - (b.idle - a.idle)) / total) * 10000) / 100 : 0;
}

async function cpuUsage(sampleMs: number): Promise<number> {
  const a = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  return busyPercent(a, cpuTimes());
}

async function databaseFigures(db: Db) {
  const started = performance.now();
  await sql`select 1`.execute(db);
  const responseMs = Math.round((performance.now() - started) * 100) / 100;
  if (dialectOf(db) === 'postgres') {
    const { rows } = await sql<{ size: number; connections: number }>`
      select pg_database_size(current_database()) as size,
        (select count(*) from pg_stat_activity where datname = current_database()) as connections`.execute(db);
    return { responseMs, size: Number(rows[0].size), connections: Number(rows[0].connections) };
  }
  const { rows } = await sql<{ size: number }>`
    select page_count * page_size as size from pragma_page_count(), pragma_page_size()`.execute(db);
  return { responseMs, size: Number(rows[0].size), connections: null };
}

export interface HealthSnapshotOptions {
  /** Whose file system's free and total space is recorded (DATA_DIR). */
  dataDir: string;
  /** How long CPU usage is sampled, in ms. */
  sampleMs: number;
}

/** One measurement: what a snapshot stores. */
export type HealthMeasurement = Omit<Selectable<HealthSnapshotsTable>, 'id' | 'loadAverage'> & { loadAverage: number[] };

/** Measures CPU (over sampleMs), memory, the data directory's disk and the database now. */
export async function measureHealth(db: Db, options: HealthSnapshotOptions): Promise<HealthMeasurement> {
  return measureHealthWith(db, options.dataDir, await cpuUsage(options.sampleMs));
}

/** Memory, the data directory's disk and the database now, with a CPU usage measured elsewhere. */
export async function measureHealthWith(db: Db, dataDir: string, cpuPercent: number): Promise<HealthMeasurement> {
  const [disk, database] = await Promise.all([fs.statfs(dataDir).catch(() => null), databaseFigures(db)]);
  return {
    createdAt: new Date().toISOString(),
    cpuUsage: cpuPercent,
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
    cpuCount: os.cpus().length,
    memoryUsed: os.totalmem() - os.freemem(),
    memoryTotal: os.totalmem(),
    processRss: process.memoryUsage.rss(),
    diskFree: disk ? disk.bavail * disk.bsize : null,
    diskTotal: disk ? disk.blocks * disk.bsize : null,
    databaseSize: database.size,
    databaseResponseMs: database.responseMs,
    databaseConnections: database.connections,
  };
}

/**
 * Measures and records one snapshot, then deletes those older than SNAPSHOT_RETENTION_DAYS.
 * The measuring (which waits sampleMs) happens before the transaction. System or administrators.
 */
export async function recordHealthSnapshot(
  ctx: ServiceContext,
  options: HealthSnapshotOptions,
): Promise<{ snapshotId: number; purged: number }> {
  if (ctx.actor.kind === 'user' && !isAdministrator(ctx.actor.user)) throw forbidden();
  const measured = await measureHealth(ctx.db, options);
  const cutoff = new Date(Date.parse(measured.createdAt) - SNAPSHOT_RETENTION_DAYS * 86_400_000).toISOString();
  return inTransaction(ctx.db, async (db) => {
    const row = await db
      .insertInto('healthSnapshots')
      .values({ ...measured, loadAverage: toJson(measured.loadAverage) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const purged = await db.deleteFrom('healthSnapshots').where('createdAt', '<', cutoff).executeTakeFirst();
    return { snapshotId: row.id, purged: Number(purged.numDeletedRows) };
  });
}

/** Below this many snapshots (an hour's worth) there is too little to state an uptime. */
export const MIN_UPTIME_SNAPSHOTS = 60;

/**
 * The share of the minutes since the first snapshot of the retention window (7 days at most)
 * that have a health snapshot: the job engine writes one a minute while the system runs. Null
 * when fewer than an hour's worth exist.
 */
export async function uptimePercent(db: Db, now = new Date()): Promise<number | null> {
  const since = new Date(now.getTime() - SNAPSHOT_RETENTION_DAYS * 86_400_000).toISOString();
  const row = await db
    .selectFrom('healthSnapshots')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('createdAt').as('first')])
    .where('createdAt', '>=', since)
    .executeTakeFirst();
  const count = Number(row?.n ?? 0);
  if (!row?.first || count < MIN_UPTIME_SNAPSHOTS) return null;
  const minutes = Math.floor((now.getTime() - Date.parse(row.first)) / 60_000) + 1;
  return Math.round(Math.min(1, count / minutes) * 1000) / 10;
}
