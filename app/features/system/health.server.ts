// Health snapshots for System Monitoring: CPU, memory, disk (the data directory's file system),
// database size and a round-trip time, recorded every minute by the health-snapshot job.
// Snapshots older than 7 days are deleted in the same call. The measuring is the platform's
// (app/platform/health-measure.server.ts), shared with the web process's background sample.
import { toJson } from '../../../db/dialect.ts';
import {
  busyPercent,
  cpuTimes,
  measureHealthWith,
  type HealthMeasurement,
} from '../../platform/health-measure.server.ts';
import { inTransaction, requirePermission, type Db, type ServiceContext } from '../../platform/context.ts';

export const SNAPSHOT_RETENTION_DAYS = 7;

async function cpuUsage(sampleMs: number): Promise<number> {
  const a = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  return busyPercent(a, cpuTimes());
}

export interface HealthSnapshotOptions {
  /** Whose file system's free and total space is recorded (DATA_DIR). */
  dataDir: string;
  /** How long CPU usage is sampled, in ms. */
  sampleMs: number;
}

/** Measures CPU (over sampleMs), memory, the data directory's disk and the database now. */
export async function measureHealth(db: Db, options: HealthSnapshotOptions): Promise<HealthMeasurement> {
  return measureHealthWith(db, options.dataDir, await cpuUsage(options.sampleMs));
}

/**
 * Measures and records one snapshot, then deletes those older than SNAPSHOT_RETENTION_DAYS.
 * The measuring (which waits sampleMs) happens before the transaction. System or administrators.
 */
export async function recordHealthSnapshot(
  ctx: ServiceContext,
  options: HealthSnapshotOptions,
): Promise<{ snapshotId: number; purged: number }> {
  requirePermission(ctx, 'admin');
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
