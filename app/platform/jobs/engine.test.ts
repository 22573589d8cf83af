// The job engine end to end, on the embedded engine (pg-boss on PGlite, app data on SQLite)
// and on PostgreSQL when TEST_DATABASE_URL is set (a fresh pg-boss schema per run).
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { INTERRUPTED } from '../../features/system/system.server.ts';
import { requestBackup } from '../../features/backups/backups.server.ts';
import { systemActor } from '../context.ts';
import { JobEngine } from './engine.ts';
import { createRuntime } from '../runtime.ts';
import { ANOMALY_TEXT } from '../../features/audit/anomalies.server.ts';
import { appJobs } from '../../features/jobs.ts';
import type { AppConfig } from '../config.server.ts';
import { runJobNow } from './run-now.ts';
import { dropSchema, lines, testConfig, waitFor } from '../../../worker/test-helpers.ts';
import { withTestJobs } from '../../../worker/test-jobs.ts';
import { settle } from '../../../test/wait.ts';
import { noEngine } from '../../../test/context.ts';

type Mode = 'embedded' | 'postgres';
const MODES: Mode[] = process.env.TEST_DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];

describe.each(MODES)('job engine (%s)', (mode) => {
  let database: TestDatabase;
  let engine: JobEngine;
  const runtime = createRuntime();
  const enqueue = runtime.jobs.enqueue.bind(runtime.jobs);
  let config: AppConfig;
  const schema = `pgboss_test_${crypto.randomBytes(4).toString('hex')}`;
  let counter = 0;
  const file = () => path.join(database.dataDir, `job-${++counter}.log`);

  async function finished(name: string, id: string | null) {
    expect(id).toBeTruthy();
    return waitFor(async () => {
      const [job] = await engine.boss.findJobs(name, { id: id! });
      return job && ['completed', 'failed'].includes(job.state) ? job : null;
    }, `${name} ${id} to finish`);
  }

  beforeAll(async () => {
    database = await createPreparedDatabase(mode === 'embedded' ? 'sqlite' : 'postgres');
    // A recovery action a crashed run left executing.
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await database.db
      .insertInto('recoveryActions')
      .values({ actionType: 'restore_backup', status: 'executing', createdAt: old, updatedAt: old })
      .execute();
    // A backup a crashed run left in progress.
    await database.db
      .insertInto('backups')
      .values({ name: 'Interrupted backup', type: 'manual', tables: '[]', createdAt: old, updatedAt: old })
      .execute();
    const started = Date.now();
    config = testConfig(database.dataDir);
    engine = new JobEngine({
      role: mode === 'embedded' ? 'embedded' : 'worker',
      db: database.db,
      ...withTestJobs(appJobs(config)),
      settings: config,
      queueDir: mode === 'embedded' ? path.join(database.dataDir, 'queue') : undefined,
      databaseUrl: process.env.TEST_DATABASE_URL,
      schema,
      pollingIntervalSeconds: 0.5,
      superviseIntervalSeconds: 1,
      runtime,
      log: () => {},
    });
    runtime.jobs.host(engine);
    await engine.start();
    console.log(`[test] ${mode} engine started in ${Date.now() - started} ms`);
  });

  afterAll(async () => {
    runtime.jobs.host(null);
    await engine?.stop({ graceful: false });
    if (mode === 'postgres') await dropSchema(schema);
    await database?.destroy();
  });

  it('marks work a crashed run left executing as failed, as a recovery action', async () => {
    const actions = await database.db.selectFrom('recoveryActions').selectAll().orderBy('id').execute();
    expect(actions[0]).toMatchObject({ actionType: 'restore_backup', status: 'failed', result: INTERRUPTED });
    expect(actions[1]).toMatchObject({ actionType: 'restart_cleanup', status: 'completed' });
    expect(actions[1].result).toContain(INTERRUPTED);
    const backup = await database.db
      .selectFrom('backups')
      .selectAll()
      .where('name', '=', 'Interrupted backup')
      .executeTakeFirstOrThrow();
    expect(backup).toMatchObject({ status: 'failed', error: INTERRUPTED });
    expect(actions.some((a) => a.actionType === 'restart_cleanup' && a.result?.includes('interrupted backup'))).toBe(
      true,
    );
  });

  it('a backup asked for from the web is written by the backup-create job', async () => {
    const system = { db: database.db, actor: systemActor('worker'), meta: {}, runtime };
    const settings = { dir: path.join(database.dataDir, 'backups'), schedule: '0 2 * * *', keep: 14 };
    const backup = await requestBackup(system, settings, { tables: ['departments'] });
    const done = await waitFor(async () => {
      const row = await database.db
        .selectFrom('backups')
        .selectAll()
        .where('id', '=', backup.id)
        .executeTakeFirstOrThrow();
      return row.status !== 'in_progress' ? row : null;
    }, 'the backup to complete');
    expect(done).toMatchObject({ status: 'completed', recordCount: 16 + 0 });
    expect(done.fileName).toMatch(/^finhub-backup-\d+-/);
  });

  it('creates the queues, the dead-letter queue and the schedules', async () => {
    const queues = (await engine.boss.getQueues()).map((q) => q.name);
    expect(queues).toEqual(
      expect.arrayContaining([
        'dead-letter',
        'health-snapshot',
        'anomaly-detection',
        'purge-login-attempts',
        'audit-retention',
        'backup-create',
        'backup-scheduled',
        'notification-push',
        'push-send',
        'notifications-purge',
        'ai-insights',
        'integration-sync',
        'integration-schedule',
        'expense-anomalies',
        'activity-window',
      ]),
    );
    const health = await engine.boss.getQueue('health-snapshot');
    expect(health).toMatchObject({ deadLetter: 'dead-letter', expireInSeconds: 60, policy: 'singleton' });
    const schedules = await engine.boss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual([
      ['activity-window', '*/5 * * * *'],
      ['ai-insights', '15 4 * * *'],
      ['anomaly-detection', '*/15 * * * *'],
      ['audit-retention', '30 3 * * *'],
      ['backup-scheduled', '0 2 * * *'],
      ['expense-anomalies', '*/5 * * * *'],
      ['health-snapshot', '* * * * *'],
      ['integration-schedule', '*/5 * * * *'],
      ['notifications-purge', '45 3 * * *'],
      ['purge-login-attempts', '17 3 * * *'],
    ]);
    expect(schedules.every((s) => s.options?.singletonKey === s.name)).toBe(true);
  });

  it.runIf(mode === 'embedded')(
    'the embedded queue runs with small PostgreSQL buffers (a queue of a few thousand jobs)',
    async () => {
      const { rows } = await engine.boss
        .getDb()
        .executeSql('select name, setting, unit from pg_settings where name in ($1, $2)', [
          'shared_buffers',
          'maintenance_work_mem',
        ]);
      const kb = (row: any) => Number(row.setting) * (row.unit === '8kB' ? 8 : 1);
      expect(Object.fromEntries((rows as any[]).map((r) => [r.name, kb(r)]))).toEqual({
        shared_buffers: 16 * 1024,
        maintenance_work_mem: 8 * 1024,
      });
    },
  );

  it('runs a job sent through enqueue, and refuses an invalid payload', async () => {
    const log = file();
    const id = await enqueue('test-echo', { file: log });
    expect((await finished('test-echo', id)).state).toBe('completed');
    expect(lines(log).map((l) => l.event)).toEqual(['done']);
    await expect(enqueue('test-echo', { file: 42 })).rejects.toThrow();
    await expect(enqueue('no-such-job', {})).rejects.toThrow('Unknown job');
  });

  it('retries a handler that throws, then succeeds', async () => {
    const log = file();
    const id = await enqueue('test-flaky', { file: log });
    expect((await finished('test-flaky', id)).state).toBe('completed');
    expect(lines(log).map((l) => `${l.event}${l.retry}`)).toEqual(['fail0', 'fail1', 'done2']);
  });

  it('sends a poison job to the dead-letter queue, which records a system error', async () => {
    const log = file();
    const id = await enqueue('test-poison', { file: log });
    expect((await finished('test-poison', id)).state).toBe('failed');
    const error = await waitFor(
      () =>
        database.db.selectFrom('systemErrors').selectAll().where('endpoint', '=', 'job:test-poison').executeTakeFirst(),
      'the system error',
    );
    expect(error).toMatchObject({
      severity: 'high',
      errorType: 'job_failed',
      method: 'JOB',
      isResolved: false,
      occurrenceCount: 1,
    });
    expect(error.message).toContain('poison payload');
    expect(error.details).toMatchObject({ jobId: id });
    expect(lines(log)).toHaveLength(2); // first attempt + retryLimit 1
  });

  it('health-snapshot writes a snapshot and purges those older than 7 days', async () => {
    const old = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await database.db
      .insertInto('healthSnapshots')
      .values({
        createdAt: old,
        cpuUsage: 1,
        loadAverage: '[0,0,0]',
        cpuCount: 1,
        memoryUsed: 1,
        memoryTotal: 2,
        processRss: 1,
        databaseResponseMs: 1,
      })
      .execute();
    const id = await enqueue('health-snapshot', { sampleMs: 50 });
    const job = await finished('health-snapshot', id);
    expect(job.state).toBe('completed');
    const rows = await database.db.selectFrom('healthSnapshots').selectAll().execute();
    expect(rows.some((r) => r.createdAt === old)).toBe(false);
    const latest = rows.at(-1)!;
    expect(latest.memoryTotal).toBeGreaterThan(0);
    expect(latest.diskTotal).toBeGreaterThan(0);
    expect(latest.databaseSize).toBeGreaterThan(0);
    expect(latest.loadAverage).toHaveLength(3);
    expect(latest.databaseResponseMs).toBeGreaterThanOrEqual(0);
  });

  it('anomaly-detection stores one anomaly per user and window, not again on the next run', async () => {
    const busy = await createTestUser(database.db, { role: 'editor' });
    const calm = await createTestUser(database.db, { role: 'editor' });
    const base = Date.now() - 20 * 60_000;
    const deletes = [
      ...[0, 1, 2, 3, 4, 5].map((i) => ({ userId: busy.id, at: base + i * 60_000 })),
      ...[0, 1, 2, 3].map((i) => ({ userId: calm.id, at: base + i * 60_000 })),
    ];
    await database.db
      .insertInto('auditLogs')
      .values(
        deletes.map((d, i) => ({
          tableName: 'budgets',
          recordId: 1000 + i,
          action: 'delete',
          userId: d.userId,
          timestamp: new Date(d.at).toISOString(),
        })),
      )
      .execute();
    for (let run = 0; run < 2; run++) {
      const id = await enqueue('anomaly-detection', {});
      expect((await finished('anomaly-detection', id)).state).toBe('completed');
    }
    const anomalies = await database.db.selectFrom('securityAnomalies').selectAll().execute();
    expect(anomalies).toHaveLength(1);
    expect(anomalies[0]).toMatchObject({
      userId: busy.id,
      username: busy.username,
      deleteCount: 6,
      windowStart: new Date(base).toISOString(),
      windowEnd: new Date(base + 5 * 60_000).toISOString(),
      description: ANOMALY_TEXT,
    });
  });

  it('purge-login-attempts deletes attempts older than 30 days', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const recent = new Date(Date.now() - 29 * 86_400_000).toISOString();
    await database.db
      .insertInto('loginAttempts')
      .values([
        { email: 'old@example.com', ipAddress: '10.0.0.1', succeeded: false, createdAt: old },
        { email: 'recent@example.com', ipAddress: '10.0.0.1', succeeded: false, createdAt: recent },
      ])
      .execute();
    const id = await enqueue('purge-login-attempts', {});
    expect((await finished('purge-login-attempts', id)).state).toBe('completed');
    const emails = (await database.db.selectFrom('loginAttempts').select('email').execute()).map((r) => r.email);
    expect(emails).toContain('recent@example.com');
    expect(emails).not.toContain('old@example.com');
  });

  it('runs a job directly without the queue (the CLI path)', async () => {
    const result = (await runJobNow(
      engine.jobs,
      'purge-login-attempts',
      {},
      { db: database.db, settings: config, runtime: noEngine() },
    )) as { deleted: number };
    expect(result.deleted).toBe(0);
    await expect(
      runJobNow(
        engine.jobs,
        'health-snapshot',
        { sampleMs: -1 },
        { db: database.db, settings: config, runtime: noEngine() },
      ),
    ).rejects.toThrow();
    expect(
      engine.jobs
        .filter((job) => job.cron)
        .map((job) => job.name)
        .sort(),
    ).toEqual([
      'activity-window',
      'ai-insights',
      'anomaly-detection',
      'audit-retention',
      'backup-scheduled',
      'expense-anomalies',
      'health-snapshot',
      'integration-schedule',
      'notifications-purge',
      'purge-login-attempts',
    ]);
  });

  // Last: it stops the shared engine.
  it('stops gracefully: the running job finishes, the queued one does not start', async () => {
    const log = file();
    await enqueue('test-slow', { file: log, ms: 1200 });
    await enqueue('test-slow', { file: log, ms: 1200 });
    await waitFor(() => lines(log).some((l) => l.event === 'start'), 'the first job to start');
    await engine.stop({ graceful: true, timeout: 10_000 });
    // stop() returned only after the running job wrote 'done' (no duration check needed), and
    // the queued one never started; once stopped, nothing polls, so there is no later start
    // to wait for (this used to sleep 1.2 s to look).
    const events = lines(log).map((l) => l.event);
    expect(events).toEqual(['start', 'done']);
    await settle();
    expect(lines(log).map((l) => l.event)).toEqual(['start', 'done']);
  });
});
