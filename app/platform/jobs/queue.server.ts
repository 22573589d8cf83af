// How services start background work: `ctx.runtime.jobs.enqueue(name, payload, options)`. The
// payload is checked by the job's schema before anything is sent. Each process builds one queue
// at its composition root (server.ts, the worker, the CLI) and hands it to every service call
// through the context (docs/jobs.md):
// - a process that hosts an engine (the embedded web server, a worker) sends on it (host);
// - a PostgreSQL web process opens a send-only engine on the first enqueue (sendVia);
// - a job declared `runsHereWithoutEngine` runs in this process, with its retries, when no engine
//   is reachable, if the process said how (runHereWithoutEngine: the web server does);
// - otherwise (the CLI) enqueue throws, and the caller decides what that means.
import { findJob, type JobDefinition } from './define.ts';

export interface EnqueueOptions {
  /** At most one queued/active job with this key (pg-boss singletonKey). */
  singletonKey?: string;
  /** Run no earlier than this (seconds from now, or a date). */
  startAfter?: number | Date;
  priority?: number;
}

/** What enqueue needs from a job engine (the JobEngine implements it). */
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

/** How a process runs a job itself when no engine is reachable (in the background, with the job's retries). */
export interface LocalRunner {
  readonly jobs: readonly JobDefinition[];
  run(name: string, data: object): Promise<unknown>;
}

/** What services see of the queue. */
export interface JobQueue {
  /** Sends job `name` (its payload checked first); the job id, or null for a duplicate singleton or a job run here. */
  enqueue(name: string, payload?: unknown, options?: EnqueueOptions): Promise<string | null>;
  /** The engine this process hosts (the system status shows it), or null. */
  readonly engine: JobSender | null;
}

const NO_ENGINE = 'No job engine in this process';

export class ProcessJobQueue implements JobQueue {
  #engine: JobSender | null = null;
  #pendingSender: Promise<JobSender> | null = null;
  #senderFactory: JobSenderFactory | null = null;
  #localRunner: LocalRunner | null = null;
  #warned = false;

  get engine(): JobSender | null {
    return this.#engine;
  }

  /** The engine this process started (or null when it is gone). */
  host(engine: JobSender | null): void {
    this.#engine = engine;
  }

  /** How to open a send-only engine when something is enqueued. */
  sendVia(factory: JobSenderFactory | null): void {
    this.#senderFactory = factory;
  }

  /** How this process runs a `runsHereWithoutEngine` job when it reaches no engine. */
  runHereWithoutEngine(runner: LocalRunner | null): void {
    this.#localRunner = runner;
  }

  /** Stops the hosted engine (gracefully: running handlers finish), or the lazily opened sender. */
  async stop(options: { timeout?: number } = {}): Promise<void> {
    const current = this.#engine ?? (this.#pendingSender ? await this.#pendingSender.catch(() => null) : null);
    this.#engine = null;
    this.#pendingSender = null;
    await current?.stop({ graceful: true, timeout: options.timeout ?? 30_000 });
  }

  async enqueue(name: string, payload: unknown = {}, options: EnqueueOptions = {}): Promise<string | null> {
    const jobs = this.#engine?.jobs ?? this.#senderFactory?.jobs ?? this.#localRunner?.jobs;
    if (!jobs) throw new Error(NO_ENGINE);
    const job = findJob(name, jobs);
    if (!job) throw new Error(`Unknown job: ${name}`);
    const data = job.payload.parse(payload ?? {}) as object;
    try {
      return await (await this.#sender()).send(name, data, options);
    } catch (error) {
      const runner = this.#localRunner;
      if (!job.runsHereWithoutEngine || !runner) throw error;
      if (!this.#warned) {
        this.#warned = true;
        console.error(`[jobs] no job engine (${(error as Error).message}): this process runs ${name} itself`);
      }
      void runner
        .run(name, data)
        .catch((failure: unknown) =>
          console.error(`[jobs] ${name} run in this process failed: ${(failure as Error).message}`),
        );
      return null;
    }
  }

  async #sender(): Promise<JobSender> {
    if (this.#engine) return this.#engine;
    const factory = this.#senderFactory;
    if (!factory) throw new Error(NO_ENGINE);
    // A sender that failed to open (the database was down) is tried again by the next enqueue.
    this.#pendingSender ??= factory.open().catch((error: unknown) => {
      this.#pendingSender = null;
      throw error;
    });
    this.#engine = await this.#pendingSender;
    return this.#engine;
  }
}
