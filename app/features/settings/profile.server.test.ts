// updateOwnProfile: the profile edit form's validation, uniqueness, audit, on every dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { userContext, noEngine } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { rejection } from '../../../test/assertions.ts';
import { ProfilePasswordSchema } from './profile-schemas.ts';
import { systemActor, type Db } from '../../platform/context.ts';
import { isDomainError } from '../../platform/errors.ts';
import { EMAIL_TAKEN, getOwnProfile, updateOwnProfile, USERNAME_TAKEN } from './profile.server.ts';

describe('profile password schema', () => {
  const messages = (input: Record<string, string>) => {
    const result = ProfilePasswordSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('all three required, new at least 8 characters, confirmation matches', () => {
    expect(messages({ currentPassword: '', newPassword: '', confirmPassword: '' })).toEqual([
      'currentPassword: All password fields are required',
      'newPassword: All password fields are required',
      'confirmPassword: All password fields are required',
    ]);
    expect(messages({ currentPassword: 'Old-password-1', newPassword: 'short', confirmPassword: 'short' })).toEqual([
      'newPassword: New password must be at least 8 characters',
    ]);
    expect(
      messages({ currentPassword: 'Old-password-1', newPassword: 'Long-enough-1', confirmPassword: 'Long-enough-2' }),
    ).toEqual(['confirmPassword: New passwords do not match']);
    expect(
      messages({ currentPassword: 'Old-password-1', newPassword: 'Long-enough-1', confirmPassword: 'Long-enough-1' }),
    ).toEqual([]);
  });
});

describe.each(TEST_DIALECTS)('profile service on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  const fieldErrors = (error: unknown) =>
    isDomainError(error) ? Object.fromEntries((error.errors ?? []).map((e) => [e.field, e.message])) : error;

  it('updates the own profile in one audited write, without password data', async () => {
    const user = await createTestUser(db);
    const ctx = await userContext(db, user.id);
    const email = `Renamed-${user.id}@Example.com`;
    const updated = await updateOwnProfile(ctx, {
      username: ` renamed-${user.id} `,
      email,
      fullName: 'Ada Lovelace',
      position: 'Analyst',
      phoneNumber: '+44 20 7946 0000',
    });
    expect(updated).toMatchObject({
      id: user.id,
      username: `renamed-${user.id}`,
      email: email.toLowerCase(),
      fullName: 'Ada Lovelace',
      position: 'Analyst',
      phoneNumber: '+44 20 7946 0000',
    });
    expect(updated).not.toHaveProperty('passwordHash');

    const audit = await db
      .selectFrom('auditLogs')
      .selectAll()
      .where('tableName', '=', 'users')
      .where('recordId', '=', user.id)
      .where('action', '=', 'update')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].userId).toBe(user.id);
    const text = JSON.stringify(audit[0]);
    expect(text).not.toMatch(/passwordHash|argon2|scrypt/);
    const changes = typeof audit[0].changes === 'string' ? JSON.parse(audit[0].changes) : audit[0].changes;
    expect(Object.keys(changes).sort()).toEqual(['email', 'fullName', 'phoneNumber', 'position', 'username']);

    // Saving the same values again writes nothing; empty optional fields become null.
    await updateOwnProfile(ctx, {
      username: `renamed-${user.id}`,
      email: email.toLowerCase(),
      fullName: 'Ada Lovelace',
      position: 'Analyst',
      phoneNumber: '+44 20 7946 0000',
    });
    const cleared = await updateOwnProfile(ctx, {
      username: `renamed-${user.id}`,
      email: email.toLowerCase(),
      fullName: '',
      position: '  ',
      phoneNumber: '',
    });
    expect(cleared).toMatchObject({ fullName: null, position: null, phoneNumber: null });
    const count = await db
      .selectFrom('auditLogs')
      .select('id')
      .where('tableName', '=', 'users')
      .where('recordId', '=', user.id)
      .where('action', '=', 'update')
      .execute();
    expect(count).toHaveLength(2);
  });

  it('username and email are required; the e-mail must be valid (spec messages)', async () => {
    const user = await createTestUser(db);
    const ctx = await userContext(db, user.id);
    let error = await rejection(updateOwnProfile(ctx, { username: '', email: '' }));
    expect(isDomainError(error) && error.status).toBe(400);
    expect(fieldErrors(error)).toEqual({
      username: 'Username and email are required',
      email: 'Username and email are required',
    });
    error = await rejection(updateOwnProfile(ctx, { username: 'someone', email: 'not-an-address' }));
    expect(fieldErrors(error)).toEqual({ email: 'Please enter a valid email address' });
    error = await rejection(updateOwnProfile(ctx, { username: 'someone', email: 'a@b.co', phoneNumber: 'call me' }));
    expect(fieldErrors(error)).toEqual({ phoneNumber: 'Please enter a valid phone number' });
    expect(await getOwnProfile(ctx)).toMatchObject({ user: { username: user.username, email: user.email } });
  });

  it('a username or e-mail of another account is a 409 naming the field (case-insensitive)', async () => {
    const other = await createTestUser(db);
    const user = await createTestUser(db);
    const ctx = await userContext(db, user.id);
    const error = await rejection(
      updateOwnProfile(ctx, { username: other.username.toUpperCase(), email: other.email.toUpperCase() }),
    );
    expect(isDomainError(error) && error.status).toBe(409);
    expect(fieldErrors(error)).toEqual({ username: USERNAME_TAKEN, email: EMAIL_TAKEN });
    // Keeping one's own values is fine.
    await expect(
      updateOwnProfile(ctx, { username: user.username, email: user.email, fullName: 'Me' }),
    ).resolves.toMatchObject({ fullName: 'Me' });
  });

  it('getOwnProfile reports company and password facts; the system actor has no profile', async () => {
    const user = await createTestUser(db, { companyId: 2 });
    const profile = await getOwnProfile(await userContext(db, user.id));
    expect(profile.companyName).toBe('Vult');
    expect(profile.passwordChangedAt).toBeNull();
    const error = await rejection(
      updateOwnProfile(
        { db, actor: systemActor('cli'), meta: {}, runtime: noEngine() },
        { username: 'x', email: 'x@example.com' },
      ),
    );
    expect(isDomainError(error) && error.status).toBe(403);
  });
});
