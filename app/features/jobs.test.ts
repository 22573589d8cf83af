// The app's jobs as appJobs assembles them: one handler per job, unique names, the crons the
// configuration sets, and the start-up clean-up across the areas.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appJobs, JOBS } from './jobs.ts';
import { DEFAULT_BACKUP_SCHEDULE } from '../platform/config.server.ts';
import type { JobSettings } from '../platform/jobs/handler.ts';
import { INTERRUPTED, recordRecoveryAction } from './system/system.server.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/database.ts';
import { systemContext } from '../../test/context.ts';

const backups = (schedule: string) => ({ backups: { dir: '/tmp/backups', schedule, keep: 14 } });

describe("the app's jobs", () => {
  it('have one handler each and unique names', () => {
    const { jobs } = appJobs(backups(DEFAULT_BACKUP_SCHEDULE));
    expect(new Set(jobs.map((job) => job.name)).size).toBe(jobs.length);
    expect(jobs.map((job) => job.name)).toEqual(JOBS.map((job) => job.name));
    for (const job of jobs) expect(typeof job.handler).toBe('function');
  });

  it('schedule the backup as the configuration says, the other jobs as they are defined', () => {
    const { jobs } = appJobs(backups('30 1 * * 0'));
    expect(jobs.find((job) => job.name === 'backup-scheduled')?.cron).toBe('30 1 * * 0');
    expect(JOBS.find((job) => job.name === 'backup-scheduled')?.cron).toBeUndefined();
    jobs.forEach((job, i) => {
      if (job.name !== 'backup-scheduled') expect(job).toBe(JOBS[i]);
    });
  });
});

describe.each(TEST_DIALECTS)('the start-up clean-up on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(() => database?.destroy());

  it('fails what a crashed run left running in every area and records one clean-up for each', async () => {
    const { db } = database;
    const now = new Date().toISOString();
    const source = await db
      .insertInto('apiIntegrationSources')
      .values({ name: 'Remote', baseUrl: 'https://remote.example', createdAt: now, updatedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const endpoint = await db
      .insertInto('apiIntegrationEndpoints')
      .values({
        sourceId: source.id,
        name: 'Expenses',
        endpoint: '/expenses',
        targetTable: 'actual_expenses',
        createdAt: now,
        updatedAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sync = await db
      .insertInto('apiIntegrationSyncLogs')
      .values({ endpointId: endpoint.id, status: 'running', startedAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const backup = await db
      .insertInto('backups')
      .values({ name: 'half written', type: 'manual', status: 'in_progress', tables: '["departments"]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const action = await recordRecoveryAction(db, { actionType: 'restart', status: 'executing' });
    const { hooks } = appJobs(backups(DEFAULT_BACKUP_SCHEDULE));
    const settings = { backups: { dir: path.join(database.dataDir, 'backups') } } as JobSettings;

    expect(await hooks.recoverInterrupted(systemContext(db), settings, undefined)).toBe(3);
    expect(
      await db
        .selectFrom('apiIntegrationSyncLogs')
        .select(['status', 'errorMessage'])
        .where('id', '=', sync.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ status: 'failed', errorMessage: INTERRUPTED });
    expect(
      await db.selectFrom('backups').select(['status', 'error']).where('id', '=', backup.id).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'failed', error: INTERRUPTED });
    expect(
      await db.selectFrom('recoveryActions').select('status').where('id', '=', action).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'failed' });
    const cleanups = await db
      .selectFrom('recoveryActions')
      .select(['description', 'result'])
      .where('actionType', '=', 'restart_cleanup')
      .orderBy('id')
      .execute();
    expect(cleanups.map((c) => c.description)).toEqual([
      'API integration syncs left running by a previous run were marked failed',
      'Backups left in progress by a previous run were marked failed',
      'Work left running by a previous run was marked failed',
    ]);
    expect(cleanups[1].result).toBe(`1 interrupted backup(s) marked failed: ${INTERRUPTED} (ids ${backup.id})`);
    // Nothing left: a second start finds nothing to clean.
    expect(await hooks.recoverInterrupted(systemContext(db), settings, undefined)).toBe(0);
  });
});
