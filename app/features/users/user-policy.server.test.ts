// Who may manage whom (docs/security.md): a user manager acts only on users whose role and effective
// flags are all within their own (the same rule as granting), through every management action;
// the owner protections keep holding. On every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { ownerId, userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { rejection } from '../../../test/assertions.ts';
import { changePassword } from '../auth/auth.server.ts';
import type { Db } from '../../platform/context.ts';
import {
  CANNOT_CHANGE_OWN_PERMISSIONS,
  CANNOT_CHANGE_OWN_ROLE,
  CANNOT_GRANT,
  CANNOT_REMOVE_SELF,
  OWNER_PROTECTED,
  rowAbilities,
} from './user-policy.server.ts';
import { findUserById } from './user-queries.server.ts';
import {
  createUser,
  deleteUser,
  issueTemporaryPassword,
  setUserActive,
  updateUser,
  updateUserPermissions,
} from './users.server.ts';

const NEW_PASSWORD = 'Taken-Over-123';

async function refusal(promise: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error = await rejection(promise);
  return { kind: error.kind, message: error.message };
}

describe.each(TEST_DIALECTS)('user management policy on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let n = 0;
  const fresh = () => `pol-${Date.now().toString(36)}-${++n}`;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  /** A viewer who may manage users but holds no delete, backups or audit-log rights. */
  const partialManager = () => createTestUser(db, { role: 'viewer', flags: { canManageUsers: true } });

  describe('a partial user manager cannot act on a user with more rights', () => {
    for (const flag of ['canDelete', 'canAccessBackups', 'canAccessAuditLogs'] as const) {
      it(`refuses every action on a viewer holding ${flag}`, async () => {
        const manager = await partialManager();
        const ctx = await userContext(db, manager.id);
        const target = await createTestUser(db, { role: 'viewer', flags: { [flag]: true } });
        const forbidden = { kind: 'forbidden', message: 'Forbidden' };
        expect(await refusal(changePassword(ctx, target.id, { newPassword: NEW_PASSWORD }))).toEqual(forbidden);
        expect(await refusal(issueTemporaryPassword(ctx, target.id))).toEqual(forbidden);
        expect(await refusal(updateUser(ctx, target.id, { username: fresh() }))).toEqual(forbidden);
        expect(await refusal(updateUserPermissions(ctx, target.id, { canAccessAnalytics: false }))).toEqual(forbidden);
        expect(await refusal(setUserActive(ctx, target.id, false))).toEqual(forbidden);
        expect(await refusal(deleteUser(ctx, target.id))).toEqual(forbidden);
        // Nothing changed: the password still works and the user is still there and active.
        const after = await findUserById(db, target.id);
        expect(after?.isActive).toBe(true);
        expect(after?.username).toBe(target.username);
        const stored = await db
          .selectFrom('users')
          .select(['isTemporaryPassword', 'passwordChangeRequired'])
          .where('id', '=', target.id)
          .executeTakeFirstOrThrow();
        expect(stored.isTemporaryPassword).toBeFalsy();
        expect(stored.passwordChangeRequired).toBeFalsy();
        // The screen hides every row button.
        expect(rowAbilities((await findUserById(db, manager.id))!, after!)).toEqual({
          edit: false,
          permissions: false,
          temporaryPassword: false,
          deactivate: false,
          delete: false,
        });
      });
    }

    it('refuses a user whose role baseline exceeds the manager (an editor), and an inactive one too', async () => {
      const manager = await partialManager();
      const ctx = await userContext(db, manager.id);
      const editor = await createTestUser(db, { role: 'editor' });
      expect((await rejection(issueTemporaryPassword(ctx, editor.id))).kind).toBe('forbidden');
      const inactive = await createTestUser(db, { role: 'viewer', flags: { canDelete: true }, isActive: false });
      expect((await rejection(setUserActive(ctx, inactive.id, true))).kind).toBe('forbidden');
    });

    it('still manages users within their own rights', async () => {
      const manager = await partialManager();
      const ctx = await userContext(db, manager.id);
      const peer = await createTestUser(db, { role: 'viewer', flags: { canManageUsers: true } });
      const viewer = await createTestUser(db, { role: 'viewer' });
      expect(rowAbilities((await findUserById(db, manager.id))!, (await findUserById(db, viewer.id))!)).toEqual({
        edit: true,
        permissions: true,
        temporaryPassword: true,
        deactivate: true,
        delete: true,
      });
      await updateUser(ctx, viewer.id, { username: fresh() });
      await issueTemporaryPassword(ctx, peer.id);
      await changePassword(ctx, viewer.id, { newPassword: NEW_PASSWORD });
      await setUserActive(ctx, viewer.id, false);
      await setUserActive(ctx, viewer.id, true);
      await deleteUser(ctx, viewer.id);
      expect(await findUserById(db, viewer.id)).toBeUndefined();
    });

    it('cannot create or promote to a role beyond their rights (the granting message is kept)', async () => {
      const manager = await partialManager();
      const ctx = await userContext(db, manager.id);
      const name = fresh();
      expect(
        await refusal(
          createUser(ctx, { email: `${name}@example.com`, username: name, role: 'editor', temporaryPassword: true }),
        ),
      ).toEqual({
        kind: 'forbidden',
        message: CANNOT_GRANT,
      });
      const viewer = await createTestUser(db, { role: 'viewer' });
      expect(await refusal(updateUser(ctx, viewer.id, { role: 'editor' }))).toEqual({
        kind: 'forbidden',
        message: CANNOT_GRANT,
      });
      expect(await refusal(updateUserPermissions(ctx, viewer.id, { canDelete: true }))).toEqual({
        kind: 'forbidden',
        message: CANNOT_GRANT,
      });
    });
  });

  describe('the owner protections keep holding', () => {
    it('an admin cannot create, edit, delete or set the password of an owner or another admin', async () => {
      const admin = await createTestUser(db, { role: 'admin' });
      const ctx = await userContext(db, admin.id);
      const owner = await ownerId(db);
      const otherAdmin = await createTestUser(db, { role: 'admin' });
      for (const role of ['admin', 'owner'] as const) {
        const name = fresh();
        expect(
          (
            await rejection(
              createUser(ctx, { email: `${name}@example.com`, username: name, role, temporaryPassword: true }),
            )
          ).kind,
          role,
        ).toBe('forbidden');
      }
      for (const target of [owner, otherAdmin.id]) {
        expect((await rejection(updateUser(ctx, target, { username: fresh() }))).kind).toBe('forbidden');
        expect((await rejection(deleteUser(ctx, target))).kind).toBe('forbidden');
        expect((await rejection(changePassword(ctx, target, { newPassword: NEW_PASSWORD }))).kind).toBe('forbidden');
        expect((await rejection(issueTemporaryPassword(ctx, target))).kind).toBe('forbidden');
        expect((await rejection(updateUserPermissions(ctx, target, { canDelete: false }))).kind).toBe('forbidden');
      }
    });

    it('an admin cannot give the admin or owner role', async () => {
      const admin = await createTestUser(db, { role: 'admin' });
      const ctx = await userContext(db, admin.id);
      const viewer = await createTestUser(db, { role: 'viewer' });
      for (const role of ['admin', 'owner'] as const) {
        expect((await rejection(updateUser(ctx, viewer.id, { role }))).kind, role).toBe('forbidden');
      }
      expect((await findUserById(db, viewer.id))?.role).toBe('viewer');
    });

    it('nobody changes their own role or flags', async () => {
      const admin = await createTestUser(db, { role: 'admin' });
      const ctx = await userContext(db, admin.id);
      expect((await rejection(updateUser(ctx, admin.id, { role: 'editor' }))).kind).toBe('forbidden');
      const editorManager = await createTestUser(db, { role: 'editor', flags: { canManageUsers: true } });
      const ectx = await userContext(db, editorManager.id);
      expect(await refusal(updateUser(ectx, editorManager.id, { role: 'viewer' }))).toEqual({
        kind: 'forbidden',
        message: CANNOT_CHANGE_OWN_ROLE,
      });
      expect((await rejection(updateUserPermissions(ctx, admin.id, { canDelete: false }))).kind).toBe('forbidden');
      expect(await refusal(updateUserPermissions(ectx, editorManager.id, { canEdit: false }))).toEqual({
        kind: 'forbidden',
        message: CANNOT_CHANGE_OWN_PERMISSIONS,
      });
      const manager = await partialManager();
      const mctx = await userContext(db, manager.id);
      expect((await rejection(updateUserPermissions(mctx, manager.id, { canAccessBackups: true }))).kind).toBe(
        'forbidden',
      );
    });

    it('nobody deactivates or deletes an owner or themselves', async () => {
      const owner = await ownerId(db);
      const ownerCtx = await userContext(db, owner);
      const admin = await createTestUser(db, { role: 'admin' });
      const ctx = await userContext(db, admin.id);
      const otherOwner = await createTestUser(db, { role: 'owner' });
      for (const [actor, target] of [
        [ownerCtx, otherOwner.id],
        [ctx, owner],
      ] as const) {
        expect(await refusal(setUserActive(actor, target, false))).toEqual({
          kind: 'forbidden',
          message: OWNER_PROTECTED,
        });
        expect(await refusal(deleteUser(actor, target))).toEqual({ kind: 'forbidden', message: OWNER_PROTECTED });
      }
      for (const [actor, self] of [
        [ctx, admin.id],
        [ownerCtx, owner],
      ] as const) {
        const self_ = self;
        const message = self_ === owner ? OWNER_PROTECTED : CANNOT_REMOVE_SELF;
        expect(await refusal(setUserActive(actor, self_, false))).toEqual({ kind: 'forbidden', message });
        expect(await refusal(deleteUser(actor, self_))).toEqual({ kind: 'forbidden', message });
      }
    });

    it('a company-scoped manager gets 404 for a user of another company', async () => {
      const companies = await db.selectFrom('companies').select('id').orderBy('id').limit(2).execute();
      const manager = await createTestUser(db, { role: 'admin', companyId: companies[0].id });
      const ctx = await userContext(db, manager.id);
      const elsewhere = await createTestUser(db, { role: 'viewer', companyId: companies[1].id });
      // One call at a time: promises made up front would reject before they are awaited.
      for (const call of [
        () => changePassword(ctx, elsewhere.id, { newPassword: NEW_PASSWORD }),
        () => issueTemporaryPassword(ctx, elsewhere.id),
        () => updateUser(ctx, elsewhere.id, { username: fresh() }),
        () => setUserActive(ctx, elsewhere.id, false),
        () => deleteUser(ctx, elsewhere.id),
      ]) {
        expect((await rejection(call())).kind).toBe('notFound');
      }
    });
  });
});
