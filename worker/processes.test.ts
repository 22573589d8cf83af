// Worker processes: `npm run worker` on SQLite, a SIGKILLed embedded host restarted on the same
// queue, and on PostgreSQL a SIGKILLed worker whose job another worker completes.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, type TestDatabase } from '../test/database.ts';
import { JobEngine } from '../app/platform/jobs/engine.ts';
import { JOBS } from '../app/features/jobs.ts';
import { dropSchema, lines, root, testConfig, waitFor } from './test-helpers.ts';
import testJobs from './test-jobs.ts';
import { webRuntime } from '../server.ts';

describe('npm run worker', () => {
  it('explains and exits 0 on SQLite', async () => {
    const dataDir = fs.mkdtempSync('/tmp/finhub-worker-');
    const child = spawn(process.execPath, ['worker/main.ts'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir },
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(out).toContain('inside the web');
  });
});

describe('embedded engine after a crash', () => {
  // The web process hosting PGlite is SIGKILLed while a job runs; the next start on the same
  // DATA_DIR/queue must open the queue and finish the job after its expiry.
  it('reopens the PGlite queue and completes the interrupted job', async () => {
    const dataDir = fs.mkdtempSync('/tmp/finhub-embedded-');
    const log = path.join(dataDir, 'slow.log');
    const host = (env: Record<string, string>) => {
      const child = spawn(process.execPath, ['worker/test-embedded-host.ts'], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: '', DATA_DIR: dataDir, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stderr.on('data', (chunk) => (out += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const ready = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.includes('[host] ready')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`host exited (${code}):\n${out}`)));
      });
      return { child, exited, ready };
    };
    try {
      const first = host({ SEND_SLOW: log });
      await first.ready;
      await waitFor(() => lines(log).find((l) => l.event === 'start'), 'the job to start');
      first.child.kill('SIGKILL');
      await first.exited;
      const started = Date.now();
      const second = host({});
      await second.ready;
      const done = await waitFor(
        () => lines(log).find((l) => l.event === 'done'),
        'the restarted host to finish the job',
      );
      expect(done).toMatchObject({ pid: second.child.pid, retry: 1 });
      console.log(`[test] embedded: restarted and finished ${Date.now() - started} ms after the kill`);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Two process starts and the embedded queue's 15 s poll: more than the default on a busy runner.
  }, 90_000);
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('separate worker processes (PostgreSQL)', () => {
  // PGlite is one process's embedded database: it cannot be shared by two processes, so the
  // crash/takeover test exists for PostgreSQL only (embedded jobs live and die with the web process).
  let database: TestDatabase;
  let sender: JobEngine;
  const schema = `pgboss_test_${crypto.randomBytes(4).toString('hex')}`;
  const children: ChildProcess[] = [];

  function startWorker(): Promise<ChildProcess & { exited: Promise<number | null> }> {
    const child = spawn(process.execPath, ['worker/test-worker.ts'], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        PGBOSS_SCHEMA: schema,
        WORKER_SCHEDULES: '0',
        WORKER_POLLING_SECONDS: '0.5',
        WORKER_SUPERVISE_SECONDS: '1',
        WORKER_STOP_TIMEOUT_SECONDS: '10',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }) as ChildProcess & { exited: Promise<number | null> };
    children.push(child);
    child.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    child.stderr!.on('data', (chunk) => (out += chunk));
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk) => {
        out += chunk;
        if (out.includes('[worker] ready')) resolve(child);
      });
      child.on('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready:\n${out}`)));
    });
  }

  beforeAll(async () => {
    database = await createPreparedDatabase('postgres');
    sender = new JobEngine({
      role: 'sender',
      db: database.db,
      databaseUrl: process.env.TEST_DATABASE_URL,
      schema,
      jobs: [...JOBS, ...testJobs],
      log: () => {},
    });
    await sender.start();
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await sender?.stop({ graceful: false });
    await dropSchema(schema);
    await database?.destroy();
  });

  it('a job whose worker is SIGKILLed mid-run is completed by another worker after expiry', async () => {
    const log = path.join(database.dataDir, 'kill.log');
    const first = await startWorker();
    const id = await sender.send('test-slow', { file: log, ms: 60_000 });
    await waitFor(
      () => lines(log).find((l) => l.event === 'start' && l.pid === first.pid),
      'the first worker to start the job',
    );
    first.kill('SIGKILL');
    await first.exited;
    const started = Date.now();
    const second = await startWorker();
    const done = await waitFor(() => lines(log).find((l) => l.event === 'done'), 'another worker to finish the job');
    expect(done).toMatchObject({ pid: second.pid, id, retry: 1 });
    console.log(`[test] taken over ${Date.now() - started} ms after the kill (expireInSeconds 2)`);
    // The handler's last line is written just before pg-boss records the completion.
    const job = await waitFor(async () => {
      const [found] = await sender.boss.findJobs('test-slow', { id: id! });
      return found?.state === 'completed' ? found : null;
    }, 'the job to be completed');
    expect(job.retryCount).toBe(1);

    // SIGTERM: the running job finishes, then the process exits 0.
    const graceful = path.join(database.dataDir, 'term.log');
    await sender.send('test-slow', { file: graceful, ms: 1500 });
    await waitFor(() => lines(graceful).some((l) => l.event === 'start'), 'the job to start');
    second.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(lines(graceful).map((l) => `${l.event} ${l.pid}`)).toEqual([`start ${second.pid}`, `done ${second.pid}`]);
  });

  it('a job whose worker is SIGKILLed is retried once its heartbeat is stale, long before its expiry', async () => {
    const log = path.join(database.dataDir, 'heartbeat.log');
    const first = await startWorker();
    const second = await startWorker();
    const id = await sender.send('test-long', { file: log, ms: 600_000 });
    const start = await waitFor(() => lines(log).find((l) => l.event === 'start'), 'a worker to start the job');
    const [owner, other] = start.pid === first.pid ? [first, second] : [second, first];
    owner.kill('SIGKILL');
    await owner.exited;
    const killed = Date.now();
    const done = await waitFor(
      () => lines(log).find((l) => l.event === 'done'),
      'the other worker to finish the job',
      60_000,
    );
    expect(done).toMatchObject({ pid: other.pid, id, retry: 1 });
    // heartbeatSeconds 10 and a supervise pass every second: within the minute waited above, while its expiry is an hour.
    console.log(
      `[test] taken over ${Date.now() - killed} ms after the kill (heartbeatSeconds 10, expireInSeconds 3600)`,
    );
    other.kill('SIGTERM');
    expect(await other.exited).toBe(0);
  }, 90_000);

  it('a web process without an engine sends through a lazily opened sender, and a worker runs the job', async () => {
    const worker = await startWorker();
    const saved = { DATABASE_URL: process.env.DATABASE_URL, PGBOSS_SCHEMA: process.env.PGBOSS_SCHEMA };
    process.env.DATABASE_URL = database.url;
    process.env.PGBOSS_SCHEMA = schema;
    try {
      // The runtime server.ts builds on PostgreSQL.
      const runtime = webRuntime(testConfig(database.dataDir), database);
      const id = await runtime.jobs.enqueue('purge-login-attempts', {});
      const job = await waitFor(async () => {
        const [found] = await sender.boss.findJobs('purge-login-attempts', { id: id! });
        return found?.state === 'completed' ? found : null;
      }, 'the worker to complete the job sent by the lazy sender');
      expect(job.retryCount).toBe(0);
      expect(runtime.jobs.engine?.mode).toBe('postgres');
      await runtime.jobs.stop({ timeout: 1000 });
      expect(runtime.jobs.engine).toBeNull();
    } finally {
      Object.assign(process.env, saved);
      for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key];
      worker.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
  });
});
