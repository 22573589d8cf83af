// Jobs used only by the tests (in process, and in the workers they spawn: test-worker.ts).
// Each appends "<event> <pid> <retryCount> <id>" lines to payload.file so a test can follow what
// ran where, even in another process.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineJob } from '../app/platform/jobs/define.ts';
import { handleJob, type JobSet, type WorkerJob } from '../app/platform/jobs/handler.ts';

const Payload = z.object({ file: z.string(), ms: z.number().int().min(0).default(0) });

function note(file: string, event: string, ctx: { job: { id: string; retryCount: number } }) {
  fs.appendFileSync(file, `${event} ${process.pid} ${ctx.job.retryCount} ${ctx.job.id}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const echo = handleJob(
  defineJob({
    name: 'test-echo',
    description: 'writes one line',
    payload: Payload,
    queue: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 10 },
  }),
  async (payload, ctx) => {
    note(payload.file, 'done', ctx);
    return { ok: true };
  },
);

export const flaky = handleJob(
  defineJob({
    name: 'test-flaky',
    description: 'fails on its first two attempts',
    payload: Payload,
    queue: { retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: 10 },
  }),
  async (payload, ctx) => {
    if (ctx.job.retryCount < 2) {
      note(payload.file, 'fail', ctx);
      throw new Error('transient failure');
    }
    note(payload.file, 'done', ctx);
  },
);

export const poison = handleJob(
  defineJob({
    name: 'test-poison',
    description: 'always fails',
    payload: Payload,
    queue: { retryLimit: 1, retryDelay: 0, retryBackoff: false, expireInSeconds: 10 },
  }),
  async (payload, ctx) => {
    note(payload.file, 'fail', ctx);
    throw new Error('poison payload');
  },
);

/** Sleeps payload.ms on its first attempt only; retries finish at once. */
export const slow = handleJob(
  defineJob({
    name: 'test-slow',
    description: 'slow first attempt',
    payload: Payload,
    queue: { retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 2 },
  }),
  async (payload, ctx) => {
    note(payload.file, 'start', ctx);
    if (ctx.job.retryCount === 0) await sleep(payload.ms);
    note(payload.file, 'done', ctx);
  },
);

/** test-slow with a backup's expiry: only its heartbeat tells that its worker died. */
export const long = handleJob(
  defineJob({
    name: 'test-long',
    description: 'slow first attempt, an hour to expire',
    payload: Payload,
    queue: { retryLimit: 2, retryDelay: 0, retryBackoff: false, expireInSeconds: 3600, heartbeatSeconds: 10 },
  }),
  async (payload, ctx) => {
    note(payload.file, 'start', ctx);
    if (ctx.job.retryCount === 0) await sleep(payload.ms);
    note(payload.file, 'done', ctx);
  },
);

/** Creates payload.file and its folder with the modes a library asks for by default (0666, 0777): what the process umask leaves of them. */
export const write = handleJob(
  defineJob({
    name: 'test-write',
    description: 'writes one line, creating its folder',
    payload: Payload,
    queue: { retryLimit: 0, retryDelay: 0, retryBackoff: false, expireInSeconds: 10 },
  }),
  async (payload, ctx) => {
    fs.mkdirSync(path.dirname(payload.file), { recursive: true });
    note(payload.file, 'done', ctx);
  },
);

const testJobs = [echo, flaky, poison, slow, long, write] as WorkerJob[];
export default testJobs;

/** The app's jobs (appJobs) with the test jobs beside them. */
export function withTestJobs(app: JobSet): JobSet {
  return { ...app, jobs: [...app.jobs, ...testJobs] };
}
