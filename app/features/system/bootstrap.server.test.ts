// First start (docs/architecture.md): an owner account with a one-time temporary password (or the given
// OWNER_PASSWORD), created once.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { seedIfEmpty } from '../../../db/seed/index.ts';
import { login } from '../auth/auth.server.ts';
import { ensureOwner } from './bootstrap.server.ts';
import { verifyPassword } from '../auth/passwords.server.ts';
import { DEFAULT_SETTINGS, settingsFromRow } from '../../platform/session/user-settings-row.ts';

describe.each(TEST_DIALECTS)('ensureOwner on %s', (dialect) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.destroy();
    database = undefined;
  });

  async function freshDatabase() {
    database = await createTestDatabase(dialect);
    await migrateToLatest(database.db);
    await seedIfEmpty(database.db, { demo: false });
    return database.db;
  }
  const owners = (db: TestDatabase['db']) => db.selectFrom('users').selectAll().where('role', '=', 'owner').execute();

  it('without OWNER_PASSWORD: a generated temporary password that must be changed, created only once', async () => {
    const db = await freshDatabase();
    const result = await ensureOwner(db, {});
    expect(result.created).toBe(true);
    expect(result.email).toBe('owner@example.com');
    expect(result.temporaryPassword).toMatch(/^[A-Za-z0-9]{12,}$/);
    expect(result.temporaryPassword).toMatch(/[A-Z]/);
    expect(result.temporaryPassword).toMatch(/[a-z]/);
    expect(result.temporaryPassword).toMatch(/\d/);

    const [owner] = await owners(db);
    expect(owner).toMatchObject({
      email: 'owner@example.com',
      role: 'owner',
      isActive: true,
      isTemporaryPassword: true,
      companyId: null,
    });
    expect(await verifyPassword(owner.passwordHash, result.temporaryPassword!)).toBe(true);

    // Audited as a system create, without the hash.
    const audit = await db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'users')
      .where('recordId', '=', owner.id)
      .execute();
    expect(audit).toMatchObject([{ action: 'create', userId: null, actorLabel: 'system' }]);
    expect(JSON.stringify(audit)).not.toContain('argon2');
    expect(JSON.stringify(audit)).not.toContain(result.temporaryPassword);

    // With its settings row (the defaults) from the start, part of the account's creation.
    const settings = await db.selectFrom('userSettings').selectAll().where('userId', '=', owner.id).execute();
    expect(settings).toHaveLength(1);
    const { id: _id, userId: _userId, createdAt: _c, updatedAt: _u, ...values } = settingsFromRow(settings[0]);
    expect(values).toEqual(DEFAULT_SETTINGS);

    // Signing in with it works and demands a new password.
    const signedIn = await login(
      db,
      { ip: '127.0.0.1' },
      { email: 'owner@example.com', password: result.temporaryPassword },
    );
    expect(signedIn.user.isTemporaryPassword).toBe(true);

    // A second start creates nothing and shows no password.
    expect(await ensureOwner(db, {})).toEqual({ created: false });
    expect(await ensureOwner(db, { email: 'another@example.com', password: 'Another-Pass-1' })).toEqual({
      created: false,
    });
    expect(await owners(db)).toHaveLength(1);
  });

  it('with OWNER_EMAIL and OWNER_PASSWORD: that account, no temporary password', async () => {
    const db = await freshDatabase();
    const result = await ensureOwner(db, { email: 'Boss@Example.COM', password: 'Chosen-Pass-1' });
    expect(result).toEqual({ created: true, email: 'boss@example.com', temporaryPassword: undefined });
    const [owner] = await owners(db);
    expect(owner).toMatchObject({ email: 'boss@example.com', isTemporaryPassword: false });
    expect(await verifyPassword(owner.passwordHash, 'Chosen-Pass-1')).toBe(true);
    expect(await ensureOwner(db, { password: 'Chosen-Pass-1' })).toEqual({ created: false });
    expect(await owners(db)).toHaveLength(1);
  });
});
