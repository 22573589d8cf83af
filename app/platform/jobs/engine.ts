// pg-boss 12 in both modes (docs/jobs.md):
// - PostgreSQL: pg-boss on the application database, in its own schema (default `pgboss`).
//   `npm run worker` processes run the handlers (role 'worker'); web processes only send
//   (role 'sender').
// - Embedded (SQLite app data): pg-boss on PGlite under DATA_DIR/queue, hosted and worked by
//   the web process (role 'embedded'). PGlite is single-connection and single-process.
// Queues (and the dead-letter queue) are created at start, schedules use singleton keys, and
// stop() is graceful: in-flight handlers finish, no new job starts. The jobs, their handlers and
// the hooks come from the caller (app/features/jobs.ts assembles them), the handlers' settings
// from the loaded configuration.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PgBoss, fromPglite, type JobWithMetadata, type SendOptions } from 'pg-boss';
import type { AppConfig } from '../config.server.ts';
import { systemActor, type Db } from '../context.ts';
import type { JobSender, JobSenderFactory } from './queue.server.ts';
import type { Runtime } from '../runtime.ts';
import { isPostgresUrl } from '../../../db/client.ts';
import { DEAD_LETTER_QUEUE } from './define.ts';
import {
  jobSettingsOf,
  type JobContext,
  type JobHooks,
  type JobSet,
  type JobSettings,
  type WorkerJob,
} from './handler.ts';
import { claimQueue, queueDirOf, writeStatusSnapshot } from './embedded-queue.ts';
import type { JobsStatus } from './status.ts';
import { removeGroupAndOtherAccess } from '../private-files.server.ts';

export type EngineRole = 'embedded' | 'worker' | 'sender' | 'inspect';

/** A row of pg-boss's job table, as status() reads it. */
interface FailedRow {
  id: string | number;
  name: string;
  retry_count: number;
  output: FailureOutput | null;
  completed_on: string | Date | null;
}

/** What pg-boss stores as a failed job's output (the error's message and stack). */
interface FailureOutput {
  message?: unknown;
  stack?: unknown;
}

/**
 * How often the embedded engine's queues are polled. Each poll is a PGlite query on the web
 * process's event loop (15 queues every 2 s kept an idle server busy and showed in the pages'
 * p99; every 15 s they cost a fraction of that, bench/README.md), and a job sent from this
 * process wakes its queue's worker at once (send()), so polling only picks up what the process
 * did not send itself: cron runs, retries after their delay, dead-lettered jobs (a job
 * interrupted by a crash is taken up again this way); those start up to this many seconds later.
 */
export const EMBEDDED_POLLING_SECONDS = 15;
/**
 * Every job's heartbeat: its worker touches the job this often (half of it, in fact) while the
 * handler runs. A job whose worker died (kill -9, a lost machine) is failed once its heartbeat
 * is this old, at the next supervise pass, and retried on a live worker, instead of holding its
 * queue until its expiry (up to an hour for a backup). Handlers are safe to run twice.
 */
export const JOB_HEARTBEAT_SECONDS = 30;
/** How often the embedded engine writes DATA_DIR/queue-status.json for `finhub jobs status`. */
export const EMBEDDED_STATUS_SECONDS = 60;

/**
 * PostgreSQL settings of the embedded queue's PGlite: its tables hold a few thousand jobs, and
 * PostgreSQL's defaults (128 MB of shared buffers, 64 MB for maintenance) sized for a database
 * server kept much more of the web process's memory for nothing.
 */
export const EMBEDDED_QUEUE_SETTINGS = [
  'shared_buffers = 16MB',
  'work_mem = 1MB',
  'maintenance_work_mem = 8MB',
  'temp_buffers = 1MB',
];

export interface EngineOptions {
  role: EngineRole;
  /** Application database the handlers work on. */
  db: Db;
  /** The jobs this engine knows: it creates their queues, sends them and (working roles) works them. */
  jobs: readonly WorkerJob[];
  /** What happens around the handlers (roles 'embedded' and 'worker'). */
  hooks?: JobHooks;
  /** The configuration the handlers run with (roles 'embedded' and 'worker'). */
  settings?: JobSettings;
  /** The process's runtime the handlers' contexts carry (roles 'embedded' and 'worker'). */
  runtime?: Runtime;
  /** postgres://… (roles 'worker' and 'sender'). */
  databaseUrl?: string;
  /** pg-boss schema on PostgreSQL. */
  schema?: string;
  /** PGlite data directory (embedded, or inspect without databaseUrl); null keeps the queue in memory (tests). */
  queueDir?: string | null;
  /** Embedded: write DATA_DIR/queue-status.json this often, for `finhub jobs status` (0: never). */
  statusSnapshotSeconds?: number;
  /** Create the cron schedules of the jobs that have one (default: on, except for senders). */
  schedules?: boolean;
  pollingIntervalSeconds?: number;
  /** How often expired active jobs are failed/retried (pg-boss supervise). */
  superviseIntervalSeconds?: number;
  /** Handlers of one queue running at once in this process. */
  localConcurrency?: number;
  log?: (message: string) => void;
}

export interface StopOptions {
  /** Let in-flight handlers finish (default true). */
  graceful?: boolean;
  /** Longest wait for them, in ms (default 30 s). */
  timeout?: number;
}

export class JobEngine implements JobSender {
  readonly options: EngineOptions;
  readonly jobs: readonly WorkerJob[];
  boss!: PgBoss;
  #pglite: { close(): Promise<void> } | null = null;
  #releaseQueue: (() => void) | null = null;
  #snapshotTimer: NodeJS.Timeout | null = null;
  #started = false;
  /** Queue → this process's worker on it (pg-boss worker ids), to wake it when a job is sent. */
  #workers = new Map<string, string>();
  #log: (message: string) => void;

  constructor(options: EngineOptions) {
    this.options = options;
    this.jobs = options.jobs;
    this.#log = options.log ?? ((message) => console.log(`[jobs] ${message}`));
  }

  get mode(): 'postgres' | 'embedded' {
    return this.options.role === 'embedded' || (this.options.role === 'inspect' && !this.options.databaseUrl)
      ? 'embedded'
      : 'postgres';
  }

  async start(): Promise<this> {
    const { role } = this.options;
    const works = role === 'embedded' || role === 'worker';
    if (works && (!this.options.hooks || !this.options.settings || !this.options.runtime))
      throw new Error(`A ${role} job engine needs the hooks, the settings and the runtime its handlers run with`);
    const timing = {
      // Expired active jobs are failed (and retried) by the per-queue monitor pass, which runs at
      // most every monitorIntervalSeconds inside a supervise pass: both follow this setting.
      superviseIntervalSeconds: this.options.superviseIntervalSeconds ?? 60,
      monitorIntervalSeconds: this.options.superviseIntervalSeconds ?? 60,
      // Senders leave maintenance and cron to the workers.
      supervise: works,
      schedule: works && this.options.schedules !== false,
      cronWorkerIntervalSeconds: 5,
      instanceName: `${role}@${os.hostname()}:${process.pid}`,
    };
    if (this.mode === 'embedded') {
      const { PGlite } = await import('@electric-sql/pglite');
      const dir = this.options.queueDir;
      // One process per PGlite directory: refuse (QueueBusyError) while another holds it.
      if (dir) this.#releaseQueue = claimQueue(path.dirname(dir));
      if (dir) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const pglite = new PGlite({ ...(dir ? { dataDir: dir } : {}), postgresqlconf: EMBEDDED_QUEUE_SETTINGS });
      await pglite.waitReady;
      // PGlite unpacks its database 0666 and rewrites a few files 0644 at each start, whatever
      // the umask: private like the rest of DATA_DIR (what it writes later follows the umask).
      if (dir) removeGroupAndOtherAccess(dir);
      this.#pglite = pglite;
      this.boss = new PgBoss({ db: fromPglite(pglite), backend: 'pglite', ...timing });
    } else {
      if (!this.options.databaseUrl) throw new Error('The job engine needs DATABASE_URL on PostgreSQL');
      this.boss = new PgBoss({
        connectionString: this.options.databaseUrl,
        schema: this.options.schema ?? 'pgboss',
        max: role === 'sender' ? 2 : 5,
        ...timing,
      });
    }
    this.boss.on('error', (error) => this.#log(`pg-boss error: ${(error as Error).message ?? error}`));
    try {
      await this.boss.start();
    } catch (error) {
      this.#releaseQueue?.();
      throw error;
    }
    this.#started = true;
    if (role === 'inspect') return this;

    await this.#ensureQueue(DEAD_LETTER_QUEUE, { retryLimit: 0, expireInSeconds: 60 });
    for (const job of this.jobs) {
      const { policy, ...queue } = job.queue;
      await this.#ensureQueue(job.name, { ...queue, policy: policy ?? 'standard', deadLetter: DEAD_LETTER_QUEUE });
    }
    if (!works) return this;

    // Embedded: nothing else can own a row left 'executing'. PostgreSQL: other workers may, so
    // only rows untouched for longer than any job may run are taken as interrupted.
    const longest = Math.max(60, ...this.jobs.map((job) => job.queue.expireInSeconds));
    const recovered = await this.#hooks.recoverInterrupted(
      { db: this.options.db, runtime: this.#runtime },
      this.#settings,
      role === 'embedded' ? undefined : new Date(Date.now() - longest * 1000),
    );
    if (recovered) this.#log(`marked ${recovered} interrupted action(s) failed`);

    const workOptions = {
      pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2,
      localConcurrency: this.options.localConcurrency ?? 1,
      batchSize: 1,
      includeMetadata: true as const,
    };
    for (const job of this.jobs) {
      const workerId = await this.boss.work(job.name, workOptions, async (batch: JobWithMetadata<object>[]) => {
        const results = [];
        for (const item of batch) results.push(await this.#run(job, item));
        return results.length === 1 ? results[0] : results;
      });
      this.#workers.set(job.name, workerId);
    }
    await this.boss.work(DEAD_LETTER_QUEUE, workOptions, async (batch: JobWithMetadata<object>[]) => {
      for (const item of batch) await this.#deadLettered(item);
    });

    if (timing.schedule) {
      for (const job of this.jobs) {
        if (!job.cron) continue;
        // The singleton key plus the queue's singleton policy: a run never overlaps the last one.
        await this.boss.schedule(job.name, job.cron, {}, { tz: 'UTC', singletonKey: job.name });
      }
    }
    const snapshotSeconds = this.options.statusSnapshotSeconds ?? 0;
    if (role === 'embedded' && this.options.queueDir && snapshotSeconds > 0) {
      const dataDir = path.dirname(this.options.queueDir);
      const snapshot = () =>
        this.status()
          .then((status) => writeStatusSnapshot(dataDir, status))
          .catch((error) => this.#log(`status snapshot failed: ${(error as Error).message}`));
      await snapshot();
      this.#snapshotTimer = setInterval(snapshot, snapshotSeconds * 1000);
      this.#snapshotTimer.unref();
    }
    this.#log(`${role} engine started (${this.mode}); queues: ${this.jobs.map((j) => j.name).join(', ')}`);
    return this;
  }

  /** Queue counts, recent failures and schedules (`finhub jobs status`). */
  async status(failedLimit = 10): Promise<JobsStatus> {
    const names = [...this.jobs.map((job) => job.name), DEAD_LETTER_QUEUE];
    const found = await this.boss.getQueues(names);
    const byName = new Map(found.map((queue) => [queue.name, queue]));
    const queues = names.map((name) => {
      const queue = byName.get(name);
      return {
        name,
        queued: queue?.queuedCount ?? 0,
        active: queue?.activeCount ?? 0,
        deferred: queue?.deferredCount ?? 0,
        failed: queue?.failedCount ?? 0,
        total: queue?.totalCount ?? 0,
      };
    });
    const schema = this.mode === 'embedded' ? 'pgboss' : (this.options.schema ?? 'pgboss');
    const { rows } = await this.boss.getDb().executeSql(
      `select id, name, retry_count, output, completed_on from ${schema}.job
       where state = 'failed' and name = any($1::text[]) order by completed_on desc nulls last limit $2`,
      [names.filter((name) => name !== DEAD_LETTER_QUEUE), failedLimit],
    );
    const failed = (rows as FailedRow[]).map((row) => ({
      id: String(row.id),
      name: String(row.name),
      failedAt: row.completed_on ? new Date(row.completed_on).toISOString() : null,
      retryCount: Number(row.retry_count),
      message: typeof row.output?.message === 'string' ? row.output.message : 'failed',
    }));
    const schedules = this.jobs.filter((job) => job.cron).map((job) => ({ name: job.name, cron: job.cron! }));
    return { mode: this.mode, queues, failed, schedules };
  }

  async #ensureQueue(name: string, given: Parameters<PgBoss['createQueue']>[1] & {}) {
    const options = { ...given, heartbeatSeconds: given.heartbeatSeconds ?? JOB_HEARTBEAT_SECONDS };
    await this.boss.createQueue(name, options);
    // createQueue leaves an existing queue as it was: bring its options up to date.
    const { policy: _policy, ...updatable } = options;
    await this.boss.updateQueue(name, updatable);
  }

  /** Checked by start() for the roles that work jobs. */
  get #hooks(): JobHooks {
    return this.options.hooks!;
  }

  get #settings(): JobSettings {
    return this.options.settings!;
  }

  get #runtime(): Runtime {
    return this.options.runtime!;
  }

  #context(item: JobWithMetadata<object>): JobContext {
    return {
      db: this.options.db,
      actor: systemActor('worker'),
      meta: {},
      runtime: this.#runtime,
      ...jobSettingsOf(this.#settings),
      job: { id: item.id, name: item.name, retryCount: item.retryCount },
      log: (message) => this.#log(`${item.name} ${item.id}: ${message}`),
    };
  }

  async #run(job: WorkerJob, item: JobWithMetadata<object>) {
    // A payload that does not parse can never succeed: it still goes through retries to the
    // dead-letter queue, where it becomes a system error.
    const payload = job.payload.parse(item.data ?? {});
    return job.handler(payload, this.#context(item));
  }

  async #deadLettered(item: JobWithMetadata<object>) {
    const source = item.sourceName ?? 'unknown';
    let output: FailureOutput | null = null;
    if (item.sourceName && item.sourceId) {
      const [original] = await this.boss.findJobs(item.sourceName, { id: item.sourceId }).catch(() => []);
      output = (original?.output as FailureOutput | undefined) ?? null;
    }
    const message = typeof output?.message === 'string' ? output.message : 'Job failed after all retries';
    await this.#hooks.deadLettered(
      { db: this.options.db, actor: systemActor('worker'), meta: {}, runtime: this.#runtime },
      {
        name: source,
        jobId: item.sourceId,
        deadLetterJobId: item.id,
        message,
        stack: typeof output?.stack === 'string' ? output.stack : null,
        payload: item.data ?? null,
      },
    );
    this.#log(`${source} ${item.sourceId} reached the dead-letter queue: ${message}`);
  }

  /** Sends a job (payload validated by the job's schema). */
  async send(name: string, payload: unknown = {}, options: SendOptions = {}): Promise<string | null> {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`Unknown job: ${name}`);
    const data = job.payload.parse(payload ?? {}) as object;
    const id = await this.boss.send(name, data, options);
    // A job due now is fetched at once by this process's own worker, not at its next poll.
    const workerId = this.#workers.get(name);
    if (id && workerId && options.startAfter == null) this.boss.notifyWorker(workerId);
    return id;
  }

  async stop(options: StopOptions = {}): Promise<void> {
    if (this.#snapshotTimer) clearInterval(this.#snapshotTimer);
    this.#snapshotTimer = null;
    if (this.#started) {
      this.#started = false;
      this.#workers.clear();
      await this.boss.stop({ graceful: options.graceful ?? true, timeout: options.timeout ?? 30_000 });
    }
    if (this.#pglite) await this.#pglite.close();
    this.#pglite = null;
    this.#releaseQueue?.();
    this.#releaseQueue = null;
  }
}

/** What a caller may set beyond the configuration and the jobs (tests, a quiet log). */
export type EngineOverrides = Partial<Omit<EngineOptions, 'role' | 'db' | 'jobs' | 'hooks' | 'settings'>>;

/**
 * The one way to build the engine, from the validated configuration:
 * - embedded: the SQLite web process hosts the queue (PGlite in DATA_DIR/queue) and works it;
 * - worker: `npm run worker` on PostgreSQL, tuned by the WORKER_* settings;
 * - sender: a PostgreSQL web process that only sends;
 * - inspect: `finhub jobs status` (PostgreSQL, or the embedded queue when no web server holds it).
 */
export function createJobEngine(
  config: AppConfig,
  db: Db,
  role: EngineRole,
  jobs: JobSet,
  overrides: EngineOverrides = {},
): JobEngine {
  const postgres = isPostgresUrl(config.databaseUrl);
  const base = {
    role,
    db,
    jobs: jobs.jobs,
    hooks: jobs.hooks,
    settings: jobSettingsOf(config),
    schema: config.jobs.pgbossSchema,
  };
  const byRole: Record<EngineRole, Omit<EngineOptions, keyof typeof base>> = {
    embedded: {
      queueDir: queueDirOf(config.dataDir),
      statusSnapshotSeconds: EMBEDDED_STATUS_SECONDS,
      pollingIntervalSeconds: EMBEDDED_POLLING_SECONDS,
    },
    worker: {
      databaseUrl: config.databaseUrl,
      schedules: config.jobs.worker.schedules,
      pollingIntervalSeconds: config.jobs.worker.pollingSeconds,
      superviseIntervalSeconds: config.jobs.worker.superviseSeconds,
      localConcurrency: config.jobs.worker.concurrency,
    },
    sender: { databaseUrl: config.databaseUrl },
    inspect: postgres ? { databaseUrl: config.databaseUrl } : { queueDir: queueDirOf(config.dataDir) },
  };
  return new JobEngine({ ...base, ...byRole[role], ...overrides });
}

/**
 * What a web process registers with useJobSenderFactory: the jobs it may send and, on
 * PostgreSQL, a send-only engine on the process's database handle opened by the first enqueue;
 * on SQLite the jobs belong to the embedded engine, so there is nothing to open.
 */
export function jobSenderFactory(config: AppConfig, db: Db, jobs: JobSet): JobSenderFactory {
  return {
    jobs: jobs.jobs,
    open: async () => {
      if (!isPostgresUrl(config.databaseUrl)) {
        throw new Error('The embedded job engine is not running in this process (it runs inside the web server)');
      }
      return createJobEngine(config, db, 'sender', jobs).start();
    },
  };
}
