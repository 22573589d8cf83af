// finhub jobs status | run <name>
// status: queue counts, recent failures and schedules. On PostgreSQL it reads pg-boss's tables
// directly. On SQLite the queue is PGlite under DATA_DIR/queue, which only one process may open:
// while the web server holds it, status shows the snapshot the web server writes every minute.
// run: runs one job's handler now in this process, through the same services (actor cli).
// The jobs are the app's (appJobs), with the loaded configuration.
import type { Command } from 'commander';
import { isPostgresUrl } from '../db/client.ts';
import { appJobs, JOBS } from '../app/features/jobs.ts';
import { findJob } from '../app/platform/jobs/define.ts';
import { createJobEngine } from '../app/platform/jobs/engine.ts';
import { queueOwner, readStatusSnapshot } from '../app/platform/jobs/embedded-queue.ts';
import { runJobNow } from '../app/platform/jobs/run-now.ts';
import type { JobsStatus } from '../app/platform/jobs/status.ts';
import { loadConfig } from '../app/platform/config.server.ts';
import { cliIo, createOutput, UsageError, withDatabase, type GlobalOptions } from './runtime.ts';

interface StatusReport extends JobsStatus {
  /** Where the figures come from: the queue itself, or the web server's snapshot. */
  source: 'queue' | 'snapshot';
  asOf: string;
}

async function readStatus(): Promise<StatusReport | null> {
  const config = loadConfig(cliIo().env);
  const postgres = isPostgresUrl(config.databaseUrl);
  if (!postgres) {
    const owner = queueOwner(config.dataDir);
    if (owner) {
      const snapshot = readStatusSnapshot(config.dataDir);
      if (!snapshot)
        throw new Error(
          `The web server (process ${owner}) holds the job queue and has not written a status snapshot yet; try again in a few seconds`,
        );
      const { writtenAt, pid: _pid, ...status } = snapshot;
      return { ...status, source: 'snapshot', asOf: writtenAt };
    }
  }
  return withDatabase(async ({ handle }) => {
    const engine = createJobEngine(config, handle.db, 'inspect', appJobs(config), { log: () => {} });
    await engine.start();
    try {
      return { ...(await engine.status()), source: 'queue' as const, asOf: new Date().toISOString() };
    } finally {
      await engine.stop({ graceful: false });
    }
  });
}

export function registerJobs(program: Command): void {
  const jobs = program.command('jobs').description('background jobs: queue status, run a job now');

  jobs
    .command('status')
    .description('queues with their counts, recent failed jobs and the schedules')
    .action(async (_options, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      const status = await readStatus();
      if (!status) return;
      if (out.json) {
        out.result(status, []);
        return;
      }
      const origin =
        status.source === 'snapshot' ? `snapshot from the running web server, ${status.asOf}` : `live, ${status.asOf}`;
      out.result(null, [
        `${status.mode === 'embedded' ? 'Embedded queue (PGlite)' : 'PostgreSQL queue (pg-boss)'}: ${origin}`,
      ]);
      await out.table(
        [
          { key: 'name', label: 'Queue' },
          { key: 'queued', label: 'Queued', right: true },
          { key: 'active', label: 'Active', right: true },
          { key: 'deferred', label: 'Deferred', right: true },
          { key: 'failed', label: 'Failed', right: true },
          { key: 'total', label: 'Total', right: true },
          { key: 'schedule', label: 'Schedule (UTC)' },
        ],
        status.queues.map((q) => ({ ...q, schedule: status.schedules.find((s) => s.name === q.name)?.cron ?? '' })),
      );
      if (status.failed.length === 0) {
        out.result(null, ['No failed jobs.']);
        return;
      }
      out.result(null, ['', 'Recent failed jobs:']);
      await out.table(
        [
          { key: 'failedAt', label: 'Failed At' },
          { key: 'name', label: 'Job' },
          { key: 'id', label: 'ID' },
          { key: 'retryCount', label: 'Retries', right: true },
          { key: 'message', label: 'Error' },
        ],
        status.failed.map((f) => ({ ...f, failedAt: f.failedAt ?? '' })),
      );
    });

  jobs
    .command('run')
    .description(`run one job now, in this process (${JOBS.map((job) => job.name).join(', ')})`)
    .argument('<name>', 'the job to run')
    .option('--payload <json>', 'the job payload as JSON', '{}')
    .action(async (name: string, options: { payload: string }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      const job = findJob(name, JOBS);
      if (!job) throw new UsageError(`Unknown job '${name}'. Jobs: ${JOBS.map((j) => j.name).join(', ')}`);
      let payload: unknown;
      try {
        payload = JSON.parse(options.payload);
      } catch {
        throw new UsageError('--payload must be JSON');
      }
      const parsed = job.payload.safeParse(payload);
      if (!parsed.success) {
        throw new UsageError(
          `--payload does not fit ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ')}`,
        );
      }
      await withDatabase(async ({ ctx, config }) => {
        const started = Date.now();
        const result = await out.task(
          `Running ${name}`,
          () =>
            runJobNow(appJobs(config).jobs, name, payload, {
              db: ctx.db,
              settings: config,
              actor: ctx.actor,
              runtime: ctx.runtime,
            }),
          () => `${name} finished`,
        );
        const seconds = (Date.now() - started) / 1000;
        out.result({ job: name, seconds, result: result ?? null }, [
          `${name} finished in ${seconds.toFixed(2)} s`,
          ...(result === undefined ? [] : [JSON.stringify(result)]),
        ]);
      });
    });
}
