// Work on one's own account is not counted as entries or edits, on every test dialect: a user
// who changes their password, their profile and their settings (through the real services) has
// no entries or edits, live (My Dashboard), in the activity window the job stores (Editor
// Statistics, analytics) and in the kept all-time counts; an administrator setting someone
// else's password still counts as an edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { refreshActivityWindow, userCounts } from './activity-window.server.ts';
import { changePassword } from '../auth/auth.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import { editorMetrics } from '../dashboards/editor-dashboard.server.ts';
import { workOf } from './editor-stats.server.ts';
import { updateOwnProfile } from '../settings/profile.server.ts';
import { updateUserSettings } from '../settings/user-settings.server.ts';

describe.each(TEST_DIALECTS)("one's own account on %s", (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let editor: { id: number; email: string; username: string; ctx: ServiceContext };
  let owner: { id: number; ctx: ServiceContext };

  const kept = async (userId: number, action: string) =>
    Number(
      (
        await db
          .selectFrom('auditUserCounts')
          .select('entries')
          .where('userId', '=', userId)
          .where('action', '=', action)
          .executeTakeFirst()
      )?.entries ?? 0,
    );

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    const user = await createTestUser(db, { role: 'editor' });
    editor = { id: user.id, email: user.email, username: user.username, ctx: await userContext(db, user.id) };
    const ownerUser = await ownerId(db);
    owner = { id: ownerUser, ctx: await userContext(db, ownerUser) };
  });
  afterAll(() => database?.destroy());

  it('a password change, a profile edit and settings are neither entries nor edits; managing another account is an edit', async () => {
    await changePassword(editor.ctx, editor.id, { currentPassword: TEST_PASSWORD, newPassword: 'Another-Password-2' });
    await updateOwnProfile(editor.ctx, {
      username: editor.username,
      email: editor.email,
      fullName: 'Self Service',
      position: null,
      phoneNumber: null,
    });
    await updateUserSettings(editor.ctx, { theme: 'dark' });
    await updateUserSettings(editor.ctx, { language: 'fr' });
    // The trail has them all, by the editor.
    const own = await db
      .selectFrom('auditLogs')
      .select(['tableName', 'action'])
      .where('userId', '=', editor.id)
      .where('action', 'in', ['create', 'update'])
      .execute();
    expect(own.filter((e) => e.tableName === 'users')).toHaveLength(2);
    expect(own.filter((e) => e.tableName === 'user_settings').length).toBeGreaterThanOrEqual(2);

    const now = new Date(Date.now() + 1000);
    expect((await workOf(db, [editor.id], now, 'live')).get(editor.id)).toMatchObject({ entries: 0, edits: 0 });
    await refreshActivityWindow(db, { now, force: true });
    expect((await userCounts(db, [editor.id])).get(editor.id) ?? { entries: 0, edits: 0 }).toEqual({
      entries: 0,
      edits: 0,
    });
    expect([await kept(editor.id, 'create'), await kept(editor.id, 'update')]).toEqual([0, 0]);
    const metrics = await editorMetrics(editor.ctx, now);
    expect(metrics).toMatchObject({ totalEntries: 0, totalEdits: 0, week: { entries: 0, edits: 0 } });
    expect(metrics.performance.changes).toBe(0);

    // The owner sets the editor's password: user management, counted as the owner's edit.
    const [ownerEdits, ownerWindow] = [
      await kept(owner.id, 'update'),
      (await workOf(db, [owner.id], now, 'live')).get(owner.id)!.edits,
    ];
    await changePassword(owner.ctx, editor.id, { newPassword: 'Set-By-Owner-3' });
    const later = new Date(Date.now() + 1000);
    expect(await kept(owner.id, 'update')).toBe(ownerEdits + 1);
    expect((await workOf(db, [owner.id], later, 'live')).get(owner.id)!.edits).toBe(ownerWindow + 1);
    await refreshActivityWindow(db, { now: later, force: true });
    expect((await userCounts(db, [owner.id])).get(owner.id)?.edits).toBe(ownerWindow + 1);
  });
});
