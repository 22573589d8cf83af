// Every minute: CPU, memory, disk (DATA_DIR's file system), database size and a round-trip
// time, for System Monitoring. Snapshots older than 7 days are deleted in the same run.
import fs from 'node:fs/promises';
import os from 'node:os';
import { sql } from 'kysely';
import { z } from 'zod';
import { dialectOf } from '../../db/dialect.ts';
import { toJson } from '../../db/dialect.ts';
import type { Db } from '../../app/services/context.ts';
import { defineJob } from '../define.ts';

export const SNAPSHOT_RETENTION_DAYS = 7;

function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    idle += cpu.times.idle;
    total += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.irq + cpu.times.idle;
  }
  return { idle, total };
}

async function cpuUsage(sampleMs: number): Promise<number> {
  const a = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const b = cpuTimes();
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

export default defineJob({
  name: 'health-snapshot',
  description: 'Records CPU, memory, disk and database figures; keeps 7 days',
  payload: z.object({ sampleMs: z.number().int().min(0).max(5000).default(200) }),
  queue: { retryLimit: 1, retryDelay: 5, retryBackoff: false, expireInSeconds: 60, policy: 'singleton' },
  cron: '* * * * *',
  async handler(payload, ctx) {
    const [usage, disk, database] = await Promise.all([
      cpuUsage(payload.sampleMs),
      fs.statfs(ctx.dataDir).catch(() => null),
      databaseFigures(ctx.db),
    ]);
    const now = new Date();
    const row = await ctx.db
      .insertInto('healthSnapshots')
      .values({
        createdAt: now.toISOString(),
        cpuUsage: usage,
        loadAverage: toJson(os.loadavg().map((n) => Math.round(n * 100) / 100)),
        cpuCount: os.cpus().length,
        memoryUsed: os.totalmem() - os.freemem(),
        memoryTotal: os.totalmem(),
        processRss: process.memoryUsage.rss(),
        diskFree: disk ? disk.bavail * disk.bsize : null,
        diskTotal: disk ? disk.blocks * disk.bsize : null,
        databaseSize: database.size,
        databaseResponseMs: database.responseMs,
        databaseConnections: database.connections,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cutoff = new Date(now.getTime() - SNAPSHOT_RETENTION_DAYS * 86_400_000).toISOString();
    const purged = await ctx.db.deleteFrom('healthSnapshots').where('createdAt', '<', cutoff).executeTakeFirst();
    return { snapshotId: row.id, purged: Number(purged.numDeletedRows) };
  },
});
