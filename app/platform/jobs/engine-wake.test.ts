// The embedded engine polls its queues rarely (EMBEDDED_POLLING_SECONDS); a job sent from the
// process still starts at once, because send() wakes that queue's worker.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPreparedDatabase, type TestDatabase } from '../../../test/database.ts';
import { EMBEDDED_POLLING_SECONDS, JobEngine } from './engine.ts';
import { lines, testConfig, waitFor } from '../../../worker/test-helpers.ts';
import testJobs from '../../../worker/test-jobs.ts';
import { appJobs } from '../../features/jobs.ts';
import { createRuntime } from '../runtime.ts';

let database: TestDatabase;
let engine: JobEngine;

beforeAll(async () => {
  database = await createPreparedDatabase('sqlite');
  const config = testConfig(database.dataDir);
  engine = new JobEngine({
    role: 'embedded',
    db: database.db,
    jobs: testJobs,
    hooks: appJobs(config).hooks,
    settings: config,
    queueDir: path.join(database.dataDir, 'queue'),
    pollingIntervalSeconds: EMBEDDED_POLLING_SECONDS,
    runtime: createRuntime(),
    log: () => {},
  });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop({ graceful: false });
  await database?.destroy();
});

it('starts a job sent from the process long before the next poll', async () => {
  expect(EMBEDDED_POLLING_SECONDS).toBeGreaterThanOrEqual(10);
  // The workers' first fetch ran at start; they now sleep until the next poll.
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const round of [1, 2]) {
    const file = path.join(database.dataDir, `wake-${round}.log`);
    const sent = Date.now();
    await engine.send('test-echo', { file });
    await waitFor(() => lines(file).length > 0, `job ${round} to run`, 3_000);
    expect(Date.now() - sent).toBeLessThan(3_000);
  }
});

it('leaves a job sent to start later to the poll', async () => {
  const file = path.join(database.dataDir, 'later.log');
  await engine.send('test-echo', { file }, { startAfter: 60 });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(lines(file)).toEqual([]);
});
