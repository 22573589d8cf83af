// Migration 0019 on a database that already holds names differing only in case (two requests
// at once before it, or a restore): it does not fail; the oldest row of each group keeps its
// name, the later ones are renamed "Name (2)", "Name (3)"… in id order (skipping spellings
// already taken), each with an audit entry and a data version; afterwards the database refuses
// such a name itself, and a restore of a backup holding such duplicates is a 409 naming the row.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../test/database.ts';
import { createTestUser } from '../../test/users.ts';
import { restoreBackup } from '../../app/features/backups/backup-restore.server.ts';
import { createBackupNow } from '../../app/features/backups/backups.server.ts';
import { backupSettingsFrom } from '../../app/platform/config.server.ts';
import { constraintViolation, dialectHelpers } from '../dialect.ts';
import { migrations } from './index.ts';
import { renamed, UNIQUE_NAMES } from './0019_unique_names.ts';

describe('renamed spellings', () => {
  it('"Name (n)" within 255 characters; an e-mail address keeps its domain', () => {
    expect(renamed('Finance', 2, 'name')).toBe('Finance (2)');
    expect(renamed('x'.repeat(255), 12, 'name')).toBe(`${'x'.repeat(250)} (12)`);
    expect(renamed('Jane.Doe@Example.com', 2, 'email')).toBe('Jane.Doe+2@Example.com');
  });
});

describe.each(TEST_DIALECTS)('migration 0019 (unique names) on %s', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<any>;
  const ids: Record<string, number> = {};

  const insert = async (table: string, label: string, values: Record<string, unknown>) => {
    ids[label] = (await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id;
  };
  const nameOf = async (table: string, label: string, column = 'name') =>
    (await db.selectFrom(table).select(column).where('id', '=', ids[label]).executeTakeFirstOrThrow())[column];

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db as unknown as Kysely<any>;
    // The database as it was before 0019: no unique index on the names' keys.
    for (const rule of UNIQUE_NAMES) await db.schema.dropIndex(rule.index).execute();

    await insert('departments', 'dept', { name: 'Dup Dept' });
    await insert('departments', 'deptTwo', { name: 'dup dept (2)' });
    await insert('departments', 'deptUpper', { name: 'DUP DEPT' });
    await insert('departments', 'deptLower', { name: 'dup dept' });
    await insert('departments', 'umlaut', { name: 'Ünï Dept' });
    await insert('departments', 'umlautUpper', { name: 'üNÏ DEPT' });
    await insert('companies', 'acme', { name: 'Acme', type: 'fintech' });
    await insert('companies', 'acmeUpper', { name: 'ACME', type: 'fintech' });
    await insert('companies', 'other', { name: 'Other Co', type: 'marketing' });
    await insert('expenseCategories', 'travel', { companyId: ids.acme, name: 'Travel' });
    await insert('expenseCategories', 'travelUpper', { companyId: ids.acme, name: 'TRAVEL' });
    await insert('expenseCategories', 'travelElsewhere', { companyId: ids.other, name: 'travel' });
    await insert('apiIntegrationSources', 'source', {
      name: 'Ledger',
      baseUrl: 'https://api.example.com',
      authType: 'none',
    });
    await insert('apiIntegrationSources', 'sourceUpper', {
      name: 'LEDGER',
      baseUrl: 'https://api.example.com',
      authType: 'none',
    });
    const bob = await createTestUser(database.db, { email: 'bob@example.com' });
    const bobUpper = await createTestUser(database.db, { email: 'BOB@example.com' });
    await db.updateTable('users').set({ username: 'Bob' }).where('id', '=', bob.id).execute();
    await db.updateTable('users').set({ username: 'BOB' }).where('id', '=', bobUpper.id).execute();
    ids.bob = bob.id;
    ids.bobUpper = bobUpper.id;

    await migrations['0019_unique_names'].up(db, dialectHelpers(dialect));
  });
  afterAll(() => database?.destroy());

  it('keeps the oldest name of each group and renames the later ones in id order, past spellings already taken', async () => {
    expect(await nameOf('departments', 'dept')).toBe('Dup Dept');
    expect(await nameOf('departments', 'deptTwo')).toBe('dup dept (2)');
    expect(await nameOf('departments', 'deptUpper')).toBe('DUP DEPT (3)');
    expect(await nameOf('departments', 'deptLower')).toBe('dup dept (4)');
    // The services' rule is Unicode case (SQLite's lower() folds ASCII only): renamed on both.
    expect(await nameOf('departments', 'umlaut')).toBe('Ünï Dept');
    expect(await nameOf('departments', 'umlautUpper')).toBe('üNÏ DEPT (2)');
    expect(await nameOf('companies', 'acmeUpper')).toBe('ACME (2)');
    expect(await nameOf('expenseCategories', 'travel')).toBe('Travel');
    expect(await nameOf('expenseCategories', 'travelUpper')).toBe('TRAVEL (2)');
    // Another company's category of that name is not a duplicate.
    expect(await nameOf('expenseCategories', 'travelElsewhere')).toBe('travel');
    expect(await nameOf('apiIntegrationSources', 'sourceUpper')).toBe('LEDGER (2)');
    expect(await nameOf('users', 'bob', 'username')).toBe('Bob');
    expect(await nameOf('users', 'bobUpper', 'username')).toBe('BOB (2)');
    expect(await nameOf('users', 'bobUpper', 'email')).toBe('BOB+2@example.com');
  });

  it("records each rename in the audit trail and as the record's new version", async () => {
    const entries = await db
      .selectFrom('auditLogs')
      .select(['action', 'changes', 'reason', 'actorLabel', 'newData'])
      .where('tableName', '=', 'departments')
      .where('recordId', '=', ids.deptUpper)
      .execute();
    expect(entries).toHaveLength(1);
    const changes = typeof entries[0].changes === 'string' ? JSON.parse(entries[0].changes) : entries[0].changes;
    expect(changes).toEqual({ name: { old: 'DUP DEPT', new: 'DUP DEPT (3)' } });
    expect(entries[0]).toMatchObject({
      action: 'update',
      actorLabel: 'migration',
      reason: expect.stringContaining('another case'),
    });
    const users = await db
      .selectFrom('auditLogs')
      .select('newData')
      .where('tableName', '=', 'users')
      .where('recordId', '=', ids.bobUpper)
      .execute();
    expect(users).toHaveLength(2);
    for (const u of users) expect(JSON.stringify(u.newData)).not.toContain('passwordHash');
    const versions = await db
      .selectFrom('dataVersions')
      .select(['version', 'isActive', 'data'])
      .where('tableName', '=', 'departments')
      .where('recordId', '=', ids.deptUpper)
      .execute();
    expect(versions.map((v) => [v.version, Boolean(v.isActive)])).toEqual([[1, true]]);
    const data = typeof versions[0].data === 'string' ? JSON.parse(versions[0].data) : versions[0].data;
    expect(data.name).toBe('DUP DEPT (3)');
  });

  it('afterwards the database itself refuses a name taken in another case', async () => {
    const refused = async (table: string, values: Record<string, unknown>) => {
      const error = await db
        .insertInto(table)
        .values(values)
        .execute()
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(constraintViolation(error), `${table} ${JSON.stringify(values)}`).toBe('unique');
    };
    await refused('departments', { name: 'dUp DePt' });
    await refused('companies', { name: 'acme', type: 'fintech' });
    await refused('expenseCategories', { companyId: ids.acme, name: 'tRaVeL' });
    await refused('apiIntegrationSources', { name: 'ledger', baseUrl: 'https://api.example.com', authType: 'none' });
    await refused('users', { username: 'bOB', email: 'new-bob@example.com', passwordHash: 'x', role: 'viewer' });
    await refused('users', { username: 'new-bob', email: 'Bob@Example.com', passwordHash: 'x', role: 'viewer' });
    // Another company may still use a category name.
    await db.insertInto('expenseCategories').values({ companyId: ids.other, name: 'TRAVEL (2)' }).execute();
  });

  it('a backup holding names that differ only in case is not restored: a 409 naming the row, nothing changed', async () => {
    const ctx = await userContext(database.db, await ownerId(database.db));
    const settings = backupSettingsFrom({ DATA_DIR: database.dataDir });
    // A department the backup holds and the database lost, whose name another row now has in another case.
    const lost = (
      await db.insertInto('departments').values({ name: 'Lost Dept' }).returning('id').executeTakeFirstOrThrow()
    ).id;
    const backup = await createBackupNow(ctx, settings, { tables: ['departments'] });
    await db.deleteFrom('departments').where('id', '=', lost).execute();
    await db.insertInto('departments').values({ name: 'LOST DEPT' }).execute();
    const before = await db.selectFrom('departments').select(['id', 'name']).orderBy('id').execute();
    const error = await restoreBackup(ctx, settings, { backupId: backup.id }).then(
      () => null,
      (e: unknown) => e as { status?: number; message?: string },
    );
    expect(error?.status, String(error?.message)).toBe(409);
    expect(error?.message).toContain(`row ${lost}`);
    expect(await db.selectFrom('departments').select(['id', 'name']).orderBy('id').execute()).toEqual(before);
  });
});
