// The small jobs interface services use: enqueue(name, payload, options) and the schedule
// definitions. Payloads are validated by the job's zod schema (app/jobs) before anything is sent.
// Services never import the engine (it lives in the worker): the process that hosts one
// registers it here (useJobEngine: the web process in embedded mode, a worker), and a web
// process registers a factory (useJobSenderFactory) that opens a send-only engine on first use
// (PostgreSQL).
import { findJob, JOBS } from '../jobs/index.ts';
import type { JobDefinition } from '../jobs/define.ts';

export interface EnqueueOptions {
  /** At most one queued/active job with this key (pg-boss singletonKey). */
  singletonKey?: string;
  /** Run no earlier than this (seconds from now, or a date). */
  startAfter?: number | Date;
  priority?: number;
}

/** What enqueue needs from a job engine (the worker's JobEngine implements it). */
export interface JobSender {
  readonly mode: 'postgres' | 'embedded';
  /** The jobs it knows: enqueue accepts these names. */
  readonly jobs: readonly JobDefinition[];
  send(name: string, data: object, options: EnqueueOptions): Promise<string | null>;
  /** graceful: running handlers finish; timeout in ms. */
  stop(options: { graceful?: boolean; timeout?: number }): Promise<void>;
}

/** Opens a send-only engine, or throws why this process cannot send. */
export type JobSenderFactory = () => Promise<JobSender>;

/** What runs when: one entry per job that has a cron expression (UTC). */
export const schedules = JOBS.filter((job) => job.cron).map((job) => ({ name: job.name, cron: job.cron!, description: job.description }));

let engine: JobSender | null = null;
let pendingSender: Promise<JobSender> | null = null;
let senderFactory: JobSenderFactory | null = null;

/** The host registers the engine it started (or null when it is gone). */
export function useJobEngine(next: JobSender | null): void {
  engine = next;
}

/** The host registers how to open a send-only engine when something is enqueued. */
export function useJobSenderFactory(factory: JobSenderFactory | null): void {
  senderFactory = factory;
}

export function currentJobEngine(): JobSender | null {
  return engine;
}

async function openSender(): Promise<JobSender> {
  if (!senderFactory) throw new Error('No job engine in this process: its host registers one (useJobEngine or useJobSenderFactory)');
  return senderFactory();
}

/** Stops this process's engine (gracefully: running handlers finish), or the lazily opened sender. */
export async function stopJobEngine(options: { timeout?: number } = {}): Promise<void> {
  const current = engine ?? (pendingSender ? await pendingSender.catch(() => null) : null);
  engine = null;
  pendingSender = null;
  await current?.stop({ graceful: true, timeout: options.timeout ?? 30_000 });
}

export async function enqueue(name: string, payload: unknown = {}, options: EnqueueOptions = {}): Promise<string | null> {
  const job = findJob(name, engine?.jobs ?? JOBS);
  if (!job) throw new Error(`Unknown job: ${name}`);
  const data = job.payload.parse(payload ?? {}) as object;
  if (!engine) {
    pendingSender ??= openSender();
    engine = await pendingSender;
  }
  return engine.send(name, data, options);
}
