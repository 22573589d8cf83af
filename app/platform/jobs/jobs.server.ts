// The small jobs interface services use: enqueue(name, payload, options). Payloads are validated
// by the schema of the job in the list the process registered before anything is sent.
// Services never import the engine: the process that hosts one registers it here
// (useJobEngine: the web process in embedded mode, a worker), and a web process registers a
// factory (useJobSenderFactory) with the jobs it may send, which opens a send-only engine on
// first use (PostgreSQL).
import { findJob, type JobDefinition } from './define.ts';

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

/** How a process without an engine of its own sends. */
export interface JobSenderFactory {
  /** The jobs it may send: enqueue accepts these names. */
  readonly jobs: readonly JobDefinition[];
  /** Opens a send-only engine, or throws why this process cannot send. */
  open(): Promise<JobSender>;
}

/**
 * The process's one job state. Kept on globalThis: the Remix build bundles its own copy of this
 * module, and the engine server.ts registers on Node's copy must be the one routes enqueue on.
 * The load context cannot carry it: services enqueue without one (deep inside notify(), readers).
 */
interface JobState {
  engine: JobSender | null;
  pendingSender: Promise<JobSender> | null;
  senderFactory: JobSenderFactory | null;
}
const state: JobState = ((globalThis as Record<symbol, unknown>)[Symbol.for('finhub.jobs')] ??= {
  engine: null,
  pendingSender: null,
  senderFactory: null,
}) as JobState;

/** The host registers the engine it started (or null when it is gone). */
export function useJobEngine(next: JobSender | null): void {
  state.engine = next;
}

/** The host registers how to open a send-only engine when something is enqueued. */
export function useJobSenderFactory(factory: JobSenderFactory | null): void {
  state.senderFactory = factory;
}

export function currentJobEngine(): JobSender | null {
  return state.engine;
}

const NO_ENGINE = 'No job engine in this process: its host registers one (useJobEngine or useJobSenderFactory)';

async function openSender(): Promise<JobSender> {
  if (!state.senderFactory) throw new Error(NO_ENGINE);
  return state.senderFactory.open();
}

/** Stops this process's engine (gracefully: running handlers finish), or the lazily opened sender. */
export async function stopJobEngine(options: { timeout?: number } = {}): Promise<void> {
  const current = state.engine ?? (state.pendingSender ? await state.pendingSender.catch(() => null) : null);
  state.engine = null;
  state.pendingSender = null;
  await current?.stop({ graceful: true, timeout: options.timeout ?? 30_000 });
}

export async function enqueue(
  name: string,
  payload: unknown = {},
  options: EnqueueOptions = {},
): Promise<string | null> {
  const jobs = state.engine?.jobs ?? state.senderFactory?.jobs;
  if (!jobs) throw new Error(NO_ENGINE);
  const job = findJob(name, jobs);
  if (!job) throw new Error(`Unknown job: ${name}`);
  const data = job.payload.parse(payload ?? {}) as object;
  if (!state.engine) {
    // A sender that failed to open (the database was down) is tried again by the next enqueue.
    state.pendingSender ??= openSender().catch((error: unknown) => {
      state.pendingSender = null;
      throw error;
    });
    state.engine = await state.pendingSender;
  }
  return state.engine.send(name, data, options);
}
