// The write helper (docs/writes.md): row, audit entry and data version in one transaction; version =
// previous + 1 with exactly one active; a failed write leaves none of the three; secrets never
// enter audit or version data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/database.ts';
import { userContext } from '../../test/context.ts';
import { createTestUser } from '../../test/users.ts';
import { diff, recordAudit, redact, writeRecord } from './audit.server.ts';
import { inTransaction, type Db, type ServiceContext } from './context.ts';
import { rejection } from '../../test/assertions.ts';

describe('redact and diff', () => {
  it('redact drops every secret field and keeps the rest', () => {
    expect(
      redact({
        id: 1,
        email: 'a@b.co',
        passwordHash: 'h',
        password: 'p',
        tokenHash: 't',
        credentialValue: 'c',
        encryptedValue: 'e',
      }),
    ).toEqual({ id: 1, email: 'a@b.co' });
    expect(redact(null)).toBeNull();
    expect(redact(undefined)).toBeNull();
  });

  it('diff lists changed, added and removed fields, ignoring updatedAt', () => {
    expect(diff({ a: 1, b: 'x', c: true, updatedAt: '1' }, { a: 1, b: 'y', d: 5, updatedAt: '2' })).toEqual({
      b: { old: 'x', new: 'y' },
      c: { old: true, new: null },
      d: { old: null, new: 5 },
    });
    expect(diff(null, { name: 'N' })).toEqual({ name: { old: null, new: 'N' } });
    expect(diff({ name: 'N' }, null)).toEqual({ name: { old: 'N', new: null } });
    expect(diff({ o: { x: 1 } }, { o: { x: 1 } })).toEqual({});
  });
});

describe.each(TEST_DIALECTS)('writeRecord on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ctx: ServiceContext;
  let actorId: number;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    const actor = await createTestUser(db, { role: 'admin' });
    actorId = actor.id;
    ctx = await userContext(db, actor.id, { ip: '203.0.113.7', userAgent: 'audit-test', sessionId: 'session-abc' });
  });
  afterAll(() => database?.destroy());

  const auditFor = (table: string, id: number) =>
    db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', table)
      .where('recordId', '=', id)
      .orderBy('id')
      .execute();
  const versionsFor = (table: string, id: number) =>
    db
      .selectFrom('dataVersions')
      .selectAll()
      .where('tableName', '=', table)
      .where('recordId', '=', id)
      .orderBy('version')
      .execute();
  const counts = async () => ({
    audit: (
      await db
        .selectFrom('auditLogs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
    versions: (
      await db
        .selectFrom('dataVersions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  });

  it('create, update and delete each write the row, an audit entry and a version', async () => {
    const created = await writeRecord(
      ctx,
      'departments',
      { action: 'create', values: { name: 'Treasury', description: 'Cash' } },
      { reason: 'new team' },
    );
    expect(created).toMatchObject({ name: 'Treasury', description: 'Cash' });
    const id = created.id as number;

    let audit = await auditFor('departments', id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'create',
      userId: actorId,
      actorLabel: ctx.actor.kind === 'user' ? ctx.actor.user.username : '',
      ipAddress: '203.0.113.7',
      userAgent: 'audit-test',
      sessionId: 'session-abc',
      reason: 'new team',
      oldData: null,
    });
    expect(audit[0].newData).toMatchObject({ id, name: 'Treasury', description: 'Cash' });
    expect(audit[0].changes).toMatchObject({
      name: { old: null, new: 'Treasury' },
      description: { old: null, new: 'Cash' },
    });
    let versions = await versionsFor('departments', id);
    expect(versions).toMatchObject([{ version: 1, action: 'create', isActive: true, createdBy: actorId }]);
    expect(versions[0].data).toMatchObject({ id, name: 'Treasury' });

    const updated = await writeRecord(ctx, 'departments', {
      action: 'update',
      id,
      values: { description: 'Cash and liquidity' },
    });
    expect(updated.description).toBe('Cash and liquidity');
    expect(updated.updatedAt >= created.updatedAt).toBe(true);
    audit = await auditFor('departments', id);
    expect(audit).toHaveLength(2);
    expect(audit[1].action).toBe('update');
    expect(audit[1].oldData).toMatchObject({ description: 'Cash' });
    expect(audit[1].newData).toMatchObject({ description: 'Cash and liquidity' });
    // Only what changed; updatedAt is not a change.
    expect(audit[1].changes).toEqual({ description: { old: 'Cash', new: 'Cash and liquidity' } });
    versions = await versionsFor('departments', id);
    expect(versions.map((v) => [v.version, v.action, v.isActive])).toEqual([
      [1, 'create', false],
      [2, 'update', true],
    ]);
    expect(versions[1].data).toMatchObject({ description: 'Cash and liquidity' });

    const deleted = await writeRecord(ctx, 'departments', { action: 'delete', id });
    expect(deleted).toMatchObject({ id, description: 'Cash and liquidity' });
    expect(await db.selectFrom('departments').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    audit = await auditFor('departments', id);
    expect(audit[2]).toMatchObject({ action: 'delete', newData: null });
    expect(audit[2].oldData).toMatchObject({ name: 'Treasury' });
    versions = await versionsFor('departments', id);
    expect(versions.map((v) => [v.version, v.action, v.isActive])).toEqual([
      [1, 'create', false],
      [2, 'update', false],
      [3, 'delete', true],
    ]);
    // The delete version keeps the data as it was, so it can be restored.
    expect(versions[2].data).toMatchObject({ name: 'Treasury', description: 'Cash and liquidity' });
  });

  it('keeps exactly one active version per record over many writes', async () => {
    const { id } = await writeRecord(ctx, 'departments', { action: 'create', values: { name: 'Versioned' } });
    for (let i = 1; i <= 5; i++)
      await writeRecord(ctx, 'departments', { action: 'update', id, values: { description: `v${i}` } });
    const versions = await versionsFor('departments', id);
    expect(versions.map((v) => v.version)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(versions.filter((v) => v.isActive).map((v) => v.version)).toEqual([6]);
    // Other records keep their own numbering.
    const other = await writeRecord(ctx, 'departments', { action: 'create', values: { name: 'Versioned too' } });
    expect((await versionsFor('departments', other.id)).map((v) => [v.version, v.isActive])).toEqual([[1, true]]);
  });

  it('a write that violates a constraint leaves no row, audit entry or version', async () => {
    const before = await counts();
    const error = await rejection(writeRecord(ctx, 'departments', { action: 'create', values: { name: 'Finance' } }));
    expect(error).toBeInstanceOf(Error);
    expect(await counts()).toEqual(before);

    const { id } = await writeRecord(ctx, 'departments', { action: 'create', values: { name: 'Renamable' } });
    const afterCreate = await counts();
    await rejection(writeRecord(ctx, 'departments', { action: 'update', id, values: { name: 'Finance' } }));
    expect(await counts()).toEqual(afterCreate);
    expect(
      (await db.selectFrom('departments').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name,
    ).toBe('Renamable');
    expect((await versionsFor('departments', id)).map((v) => [v.version, v.isActive])).toEqual([[1, true]]);
  });

  it('a failure after the row was written (the audit insert) rolls the row back too', async () => {
    // An actor id that no user has: the audit entry's foreign key fails after the insert.
    const ghost: ServiceContext = {
      ...ctx,
      actor: { kind: 'user', user: { ...(ctx.actor as any).user, id: 99_999_999 } },
    };
    const before = await counts();
    await rejection(writeRecord(ghost, 'departments', { action: 'create', values: { name: 'Ghost Department' } }));
    expect(
      await db.selectFrom('departments').select('id').where('name', '=', 'Ghost Department').executeTakeFirst(),
    ).toBeUndefined();
    expect(await counts()).toEqual(before);
  });

  it("joins the caller's transaction: a later failure undoes all three", async () => {
    const before = await counts();
    await rejection(
      inTransaction(db, async (trx) => {
        await writeRecord({ ...ctx, db: trx }, 'departments', { action: 'create', values: { name: 'Rolled Back' } });
        throw new Error('later step failed');
      }),
    );
    expect(
      await db.selectFrom('departments').select('id').where('name', '=', 'Rolled Back').executeTakeFirst(),
    ).toBeUndefined();
    expect(await counts()).toEqual(before);
  });

  it('a missing id is a 404 and writes nothing', async () => {
    const before = await counts();
    for (const op of [
      { action: 'update', id: 987654, values: { name: 'x' } },
      { action: 'delete', id: 987654 },
    ] as const) {
      const error = await rejection(writeRecord(ctx, 'departments', op));
      expect(error.status).toBe(404);
    }
    expect(await counts()).toEqual(before);
  });

  it('never stores password hashes in audit or version data', async () => {
    const created = await writeRecord(ctx, 'users', {
      action: 'create',
      values: {
        username: 'audited-user',
        email: 'audited@example.com',
        passwordHash: '$argon2id$v=19$secret-hash',
        role: 'viewer',
      },
    });
    await writeRecord(ctx, 'users', {
      action: 'update',
      id: created.id,
      values: { passwordHash: '$argon2id$v=19$another-hash', fullName: 'Audited' },
    });
    const audit = await auditFor('users', created.id);
    const versions = await versionsFor('users', created.id);
    expect(audit).toHaveLength(2);
    expect(versions).toHaveLength(2);
    for (const stored of [...audit, ...versions].map((r) => JSON.stringify(r))) {
      expect(stored).not.toContain('argon2');
      expect(stored).not.toContain('passwordHash');
    }
    expect(audit[1].changes).toEqual({ fullName: { old: null, new: 'Audited' } });
    expect(versions[1].data).toMatchObject({ email: 'audited@example.com', fullName: 'Audited' });
  });

  it('recordAudit takes the acting user, or an explicit one, and system actors by label', async () => {
    await recordAudit(
      { db, actor: { kind: 'system', label: 'cli' }, meta: {} },
      {
        tableName: 'companies',
        recordId: 424242,
        action: 'other',
        reason: 'from the CLI',
      },
    );
    await recordAudit({ ...ctx, db }, { tableName: 'companies', recordId: 424242, action: 'other', userId: null });
    const rows = await auditFor('companies', 424242);
    expect(rows).toMatchObject([
      { userId: null, actorLabel: 'cli', reason: 'from the CLI', oldData: null, newData: null, changes: null },
      { userId: null, ipAddress: '203.0.113.7' },
    ]);
    expect(rows[0].timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
