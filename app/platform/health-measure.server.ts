// The machine's and the database's figures now: CPU time counters, memory, the data directory's
// disk, the database's size and a round-trip time. The web process's background sample
// (http/health-sampler.server.ts) and System Monitoring's health snapshots measure with these.
import type { StatsFs } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Selectable } from 'kysely';
import { dialectOf } from '../../db/dialect.ts';
import type { HealthSnapshotsTable } from '../../db/types.ts';
import type { Db } from './context.ts';

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

/** One measurement: what a snapshot stores. */
export type HealthMeasurement = Omit<Selectable<HealthSnapshotsTable>, 'id' | 'loadAverage'> & {
  loadAverage: number[];
};

/**
 * The file system the data directory is on: the directory's own, or while it does not exist (yet,
 * or any more) that of its nearest existing parent, where it will be made. null only when no
 * parent can be read either.
 */
async function dataDiskOf(dataDir: string): Promise<StatsFs | null> {
  let dir = path.resolve(dataDir);
  for (;;) {
    try {
      return await fs.statfs(dir);
    } catch (error) {
      const parent = path.dirname(dir);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) return null;
      dir = parent;
    }
  }
}

/** Memory, the data directory's disk and the database now, with a CPU usage measured elsewhere. */
export async function measureHealthWith(db: Db, dataDir: string, cpuPercent: number): Promise<HealthMeasurement> {
  const [disk, database] = await Promise.all([dataDiskOf(dataDir), databaseFigures(db)]);
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
