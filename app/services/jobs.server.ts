// The small jobs interface services use: enqueue(name, payload, options) and the schedule
// definitions. Payloads are validated by the job's zod schema before anything is sent.
// The process that hosts an engine (the web process in embedded mode, a worker) registers it;
// a PostgreSQL web process gets a send-only engine on first use.
import type { SendOptions } from 'pg-boss';
import { loadConfig } from './config.server.ts';
import { createDatabase, isPostgresUrl } from '../../db/client.ts';
import { systemActor, type Actor, type Db } from './context.ts';
import type { JobContext } from '../../worker/define.ts';
import type { JobEngine } from '../../worker/engine.ts';
import { findJob, registry } from '../../worker/registry.ts';

export interface EnqueueOptions {
  /** At most one queued/active job with this key (pg-boss singletonKey). */
  singletonKey?: string;
  /** Run no earlier than this (seconds from now, or a date). */
  startAfter?: number | Date;
  priority?: number;
}

/** What runs when: one entry per job that has a cron expression (UTC). */
export const schedules = registry.filter((job) => job.cron).map((job) => ({ name: job.name, cron: job.cron!, description: job.description }));

let engine: JobEngine | null = null;
let pendingSender: Promise<JobEngine> | null = null;
let senderClose: (() => Promise<void>) | null = null;

export function useJobEngine(next: JobEngine | null): void {
  engine = next;
}

export function currentJobEngine(): JobEngine | null {
  return engine;
}

async function senderFromConfig(): Promise<JobEngine> {
  const config = loadConfig();
  if (!isPostgresUrl(config.databaseUrl)) {
    throw new Error('The embedded job engine is not running in this process (it runs inside the web server)');
  }
  const { JobEngine } = await import('../../worker/engine.ts');
  const handle = createDatabase({ url: config.databaseUrl, poolSize: 1 });
  const sender = new JobEngine({
    role: 'sender',
    db: handle.db,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    schema: process.env.PGBOSS_SCHEMA || 'pgboss',
  });
  await sender.start();
  senderClose = () => handle.close();
  return sender;
}

/** Stops this process's engine (gracefully: running handlers finish) and a lazily opened sender's pool. */
export async function stopJobEngine(options: { timeout?: number } = {}): Promise<void> {
  const current = engine ?? (pendingSender ? await pendingSender.catch(() => null) : null);
  engine = null;
  pendingSender = null;
  await current?.stop({ graceful: true, timeout: options.timeout ?? 30_000 });
  await senderClose?.();
  senderClose = null;
}

export async function enqueue(name: string, payload: unknown = {}, options: EnqueueOptions = {}): Promise<string | null> {
  const job = findJob(name, engine?.jobs);
  if (!job) throw new Error(`Unknown job: ${name}`);
  const data = job.payload.parse(payload ?? {});
  if (!engine) {
    pendingSender ??= senderFromConfig();
    engine = await pendingSender;
  }
  const sendOptions: SendOptions = { ...options };
  return engine.send(name, data, sendOptions);
}

/**
 * Runs one job's handler now, in this process, without the queue (`finhub jobs run <name>`):
 * the CLI never needs the queue, and in embedded mode the queue belongs to the web process.
 */
export async function runJobNow(
  name: string,
  payload: unknown,
  ctx: { db: Db; dataDir: string; actor?: Actor; log?: (message: string) => void },
): Promise<unknown> {
  const job = findJob(name);
  if (!job) throw new Error(`Unknown job: ${name} (known: ${registry.map((j) => j.name).join(', ')})`);
  const data = job.payload.parse(payload ?? {});
  const context: JobContext = {
    db: ctx.db,
    actor: ctx.actor ?? systemActor('cli'),
    meta: {},
    dataDir: ctx.dataDir,
    job: { id: `direct-${Date.now()}`, name, retryCount: 0 },
    log: ctx.log ?? (() => {}),
  };
  return job.handler(data, context);
}
