// A job's handler run in this process, without the queue: `finhub jobs run <name>` (the CLI never
// needs the queue, and in embedded mode the queue belongs to the web process), and the jobs a
// web process runs itself when it reaches no engine (runHereLocally).
import { systemActor, type Actor, type Db } from '../context.ts';
import type { Runtime } from '../runtime.ts';
import { findJob } from './define.ts';
import { jobSettingsOf, type JobContext, type JobSettings, type WorkerJob } from './handler.ts';
import type { LocalRunner } from './queue.server.ts';

interface RunContext {
  db: Db;
  settings: JobSettings;
  runtime: Runtime;
  actor?: Actor;
  log?: (message: string) => void;
}

export async function runJobNow(
  jobs: readonly WorkerJob[],
  name: string,
  payload: unknown,
  ctx: RunContext,
  retryCount = 0,
): Promise<unknown> {
  const job = findJob(name, jobs);
  if (!job) throw new Error(`Unknown job: ${name} (known: ${jobs.map((j) => j.name).join(', ')})`);
  const data = job.payload.parse(payload ?? {});
  const context: JobContext = {
    db: ctx.db,
    actor: ctx.actor ?? systemActor('cli'),
    meta: {},
    runtime: ctx.runtime,
    ...jobSettingsOf(ctx.settings),
    job: { id: `direct-${Date.now()}`, name, retryCount },
    log: ctx.log ?? (() => {}),
  };
  return job.handler(data, context);
}

/** Runs a job here with the retries its queue would give it (delay, backoff), as the worker actor. */
export function runHereLocally(jobs: readonly WorkerJob[], ctx: RunContext): LocalRunner {
  return {
    jobs,
    async run(name, data) {
      const job = findJob(name, jobs);
      if (!job) throw new Error(`Unknown job: ${name}`);
      const { retryLimit, retryDelay, retryBackoff } = job.queue;
      for (let retryCount = 0; ; retryCount += 1) {
        try {
          return await runJobNow(jobs, name, data, { actor: systemActor('worker'), ...ctx }, retryCount);
        } catch (error) {
          if (retryCount >= retryLimit) throw error;
          const seconds = retryBackoff ? retryDelay * 2 ** retryCount : retryDelay;
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000).unref());
        }
      }
    },
  };
}
