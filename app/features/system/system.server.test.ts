// System errors count repeated occurrences (once per occurrence key); interrupted recovery
// actions are marked failed at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { INTERRUPTED, recordRecoveryAction, recoverInterrupted } from './system.server.ts';
import { recordSystemError } from '../../platform/system-errors.server.ts';

describe.each(TEST_DIALECTS)('system errors and recovery actions on %s', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('counts occurrences of an unresolved error, each occurrence key once', async () => {
    const input = { errorType: 'job_failed', message: 'boom', endpoint: 'job:x', method: 'JOB' };
    const id = await recordSystemError(database.db, { ...input, occurrenceKey: 'a' });
    expect(await recordSystemError(database.db, { ...input, occurrenceKey: 'a' })).toBe(id);
    expect(await recordSystemError(database.db, { ...input, occurrenceKey: 'b' })).toBe(id);
    const row = await database.db.selectFrom('systemErrors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      occurrenceCount: 2,
      isResolved: false,
      severity: 'high',
      details: { occurrenceKey: 'b' },
    });
    await database.db.updateTable('systemErrors').set({ isResolved: true }).where('id', '=', id).execute();
    expect(await recordSystemError(database.db, input)).not.toBe(id);
  });

  it('marks executing actions older than the cut-off failed and records the clean-up', async () => {
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await database.db
      .insertInto('recoveryActions')
      .values({ actionType: 'old', status: 'executing', createdAt: old, updatedAt: old })
      .execute();
    const fresh = await recordRecoveryAction(database.db, { actionType: 'fresh', status: 'executing' });
    expect(await recoverInterrupted(database.db, { olderThan: new Date(Date.now() - 60_000) })).toBe(1);
    const rows = await database.db.selectFrom('recoveryActions').selectAll().orderBy('id').execute();
    expect(rows.find((r) => r.actionType === 'old')).toMatchObject({ status: 'failed', result: INTERRUPTED });
    expect(rows.find((r) => r.id === fresh)).toMatchObject({ status: 'executing' });
    expect(rows.find((r) => r.actionType === 'restart_cleanup')).toMatchObject({ status: 'completed' });
    expect(await recoverInterrupted(database.db)).toBe(1);
  });
});
