// `finhub jobs run <name>`: one job's handler now, in this process, without the queue. The CLI
// never needs the queue, and in embedded mode the queue belongs to the web process.
import { systemActor, type Actor, type Db } from '../context.ts';
import { findJob } from './define.ts';
import { jobSettingsOf, type JobContext, type JobSettings, type WorkerJob } from './handler.ts';

export async function runJobNow(
  jobs: readonly WorkerJob[],
  name: string,
  payload: unknown,
  ctx: { db: Db; settings: JobSettings; actor?: Actor; log?: (message: string) => void },
): Promise<unknown> {
  const job = findJob(name, jobs);
  if (!job) throw new Error(`Unknown job: ${name} (known: ${jobs.map((j) => j.name).join(', ')})`);
  const data = job.payload.parse(payload ?? {});
  const context: JobContext = {
    db: ctx.db,
    actor: ctx.actor ?? systemActor('cli'),
    meta: {},
    ...jobSettingsOf(ctx.settings),
    job: { id: `direct-${Date.now()}`, name, retryCount: 0 },
    log: ctx.log ?? (() => {}),
  };
  return job.handler(data, context);
}
