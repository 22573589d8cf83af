// The User Management screen over HTTP, as a browser without JavaScript uses it: the 403 for
// users without the manage-users permission, the list and its filters, the create form's
// errors, the temporary password shown once, deactivate/reactivate, the confirmation steps of
// delete, temporary password and deactivate, and the owner protections; Activity Analytics a page of users at a time.
import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../../../test/database.ts';
import { useTestServer } from '../../../test/server.ts';
import { createTestUser, TEST_PASSWORD } from '../../../test/users.ts';
import { HISTORY_PAGE_SIZE } from '../../platform/lib/paging.ts';
import { USER_CHOICES_MAX } from './user-filter.server.ts';
import { CreateUserFormSchema, permissionsFromForm } from './schemas.ts';
import { roleChoices, rowAbilities } from './user-policy.server.ts';
import { PERMISSION_FLAGS, type Principal, type Role } from '../../platform/lib/permissions.ts';

const ATLAS = 3;
const SCREEN = '/user-management';

const principal = (id: number, role: Role, companyId: number | null = null): Principal =>
  ({
    id,
    role,
    companyId,
    ...Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, false])),
  }) as Principal;

describe('user management rules of the screen', () => {
  it('row actions follow the owner protections and never allow removing oneself', () => {
    const admin = principal(1, 'admin');
    expect(rowAbilities(admin, principal(2, 'owner'))).toEqual({
      edit: false,
      permissions: false,
      temporaryPassword: false,
      deactivate: false,
      delete: false,
    });
    expect(rowAbilities(admin, principal(3, 'viewer'))).toEqual({
      edit: true,
      permissions: true,
      temporaryPassword: true,
      deactivate: true,
      delete: true,
    });
    const owner = principal(2, 'owner');
    expect(rowAbilities(owner, owner)).toMatchObject({
      permissions: false,
      temporaryPassword: false,
      deactivate: false,
      delete: false,
    });
    expect(rowAbilities(owner, admin)).toMatchObject({ edit: true, deactivate: true, delete: true });
    // A company-scoped admin manages only their company's users.
    expect(rowAbilities(principal(4, 'admin', ATLAS), principal(5, 'viewer', 2)).edit).toBe(false);
    expect(roleChoices(admin)).toEqual(['editor', 'viewer']);
    expect(roleChoices(owner)).toEqual(['owner', 'admin', 'editor', 'viewer']);
  });

  it('the create form schema maps All Companies to null and keeps the documented messages', () => {
    const ok = CreateUserFormSchema.safeParse({
      username: 'a',
      email: 'a@example.com',
      password: '12345678',
      role: 'viewer',
      companyId: 'all',
    });
    expect(ok.success && ok.data).toMatchObject({ companyId: null, isTemporaryPassword: false });
    const bad = CreateUserFormSchema.safeParse({ username: 'a', email: 'nope', password: 'short', role: 'viewer' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      'Must be a valid email address',
      'Password must be at least 8 characters',
    ]);
    // An empty password or role (conform posts nothing) says what the API says.
    const empty = CreateUserFormSchema.safeParse({ username: 'a', email: 'a@example.com' });
    expect(empty.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['password', 'Password is required'],
      ['role', 'Role is required'],
    ]);
    const form = new FormData();
    form.set('canDelete', 'on');
    expect(permissionsFromForm(form, ['canDelete', 'canEdit'])).toEqual({ canDelete: true, canEdit: false });
  });
});

describe.each(TEST_DIALECTS)('user management screen on %s', (dialect) => {
  const { db, client } = useTestServer(dialect);
  let seq = 0;
  const tag = () => `um${dialect.slice(0, 2)}${Date.now().toString(36)}${(seq += 1)}`;

  async function signedIn(options: Parameters<typeof createTestUser>[1] = {}) {
    const user = await createTestUser(db(), options);
    const c = client();
    await c.login(user.email, TEST_PASSWORD);
    return { c, user };
  }
  /** A user whose username and e-mail carry `name` (searchable). */
  async function named(name: string, options: Parameters<typeof createTestUser>[1] = {}) {
    return createTestUser(db(), { ...options, email: `${name}@example.com` });
  }
  const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
  const rowCount = (html: string) => (html.match(/data-testid="user-row"/g) ?? []).length;

  it('a user without the manage-users permission gets the 403 screen, and posts are refused', async () => {
    const { c } = await signedIn({ role: 'viewer' });
    const page = await c.get(SCREEN);
    expect(page.status).toBe(403);
    expect(await text(page)).toContain('403 Access Denied');
    const target = await createTestUser(db(), { role: 'viewer' });
    const post = await c.postForm(SCREEN, { intent: 'deactivate', id: String(target.id) });
    expect(post.status).toBe(403);
    const row = await db().selectFrom('users').select('isActive').where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(Boolean(row.isActive)).toBe(true);
    // An editor is refused too; a viewer given the flag may open it.
    expect((await (await signedIn({ role: 'editor' })).c.get(SCREEN)).status).toBe(403);
    expect((await (await signedIn({ role: 'viewer', flags: { canManageUsers: true } })).c.get(SCREEN)).status).toBe(
      200,
    );
  });

  it('an admin lists users with search, role, company and Show Inactive filters; a company admin sees only their company', async () => {
    const t = tag();
    await named(`${t}-a`, { role: 'editor' });
    await named(`${t}-b`, { role: 'viewer', companyId: ATLAS });
    await named(`${t}-c`, { role: 'viewer', isActive: false });
    const { c } = await signedIn({ role: 'admin' });

    const page = await text(await c.get(SCREEN));
    expect(page).toContain('<h1 class="text-2xl font-semibold text-slate-900">User Management</h1>');
    for (const label of ['Users', 'Statistics', 'Activity Analytics', 'Activity History', 'Add User', 'Show Inactive'])
      expect(page).toContain(label);

    const searched = await text(await c.get(`${SCREEN}?q=${t}`));
    expect(rowCount(searched)).toBe(2);
    expect(searched).toContain('Showing 2 of 2 users');
    expect(searched).not.toContain(`${t}-c@example.com`);
    const withInactive = await text(await c.get(`${SCREEN}?q=${t}&inactive=1`));
    expect(rowCount(withInactive)).toBe(3);
    expect(withInactive).toContain('Inactive');
    const editors = await text(await c.get(`${SCREEN}?q=${t}&role=editor`));
    expect(rowCount(editors)).toBe(1);
    expect(editors).toContain(`${t}-a@example.com`);
    expect(editors).toContain('data-role="editor"');
    const atlas = await text(await c.get(`${SCREEN}?q=${t}&company=${ATLAS}`));
    expect(rowCount(atlas)).toBe(1);
    expect(atlas).toContain(`${t}-b@example.com`);
    const sorted = await text(await c.get(`${SCREEN}?q=${t}&sort=username&dir=desc`));
    expect(sorted.indexOf(`${t}-b@example.com`)).toBeLessThan(sorted.indexOf(`${t}-a@example.com`));

    // Ten per page, with Previous/Next.
    const p = tag();
    for (let i = 0; i < 11; i += 1) await named(`${p}-${String(i).padStart(2, '0')}`);
    const first = await text(await c.get(`${SCREEN}?q=${p}`));
    expect(rowCount(first)).toBe(10);
    expect(first).toContain('Showing 10 of 11 users');
    expect(first).toMatch(/<a [^>]*href="\/user-management\?q=[^"]*page=2"[^>]*>Next<\/a>/);
    const second = await text(await c.get(`${SCREEN}?q=${p}&page=2`));
    expect(rowCount(second)).toBe(1);
    expect(second).toContain('Showing 1 of 11 users');
    expect(second).toContain('>Previous</a>');

    // A company-scoped admin sees only their company's users and company in the pickers.
    const scoped = await signedIn({ role: 'admin', companyId: ATLAS });
    const scopedPage = await text(await scoped.c.get(`${SCREEN}?q=${t}&new=1`));
    expect(rowCount(scopedPage)).toBe(1);
    expect(scopedPage).toContain(`${t}-b@example.com`);
    expect(scopedPage).not.toContain('>Vult</option>');
    expect(scopedPage).toContain('>Atlas Infrastructure</option>');
    expect(scopedPage).not.toContain('<option value="all">All Companies</option>');
  });

  it('Create New User: a validation error keeps the values and shows the field errors; a valid post creates the user', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const t = tag();
    const form = await text(await c.get(`${SCREEN}?new=1`));
    expect(form).toContain('Create New User');
    // An admin cannot give the owner or admin role (only the list's role filter offers them).
    expect(form.split('<option value="owner">').length - 1).toBe(1);
    expect(form.split('<option value="editor">').length - 1).toBe(2);
    const bad = await c.postForm(`${SCREEN}?new=1`, {
      intent: 'create',
      username: `${t}-new`,
      email: 'not-an-email',
      password: 'short',
      role: 'editor',
      companyId: 'all',
    });
    expect(bad.status).toBe(400);
    const badHtml = await text(bad);
    expect(badHtml).toContain('Must be a valid email address');
    expect(badHtml).toContain('Password must be at least 8 characters');
    expect(badHtml).toContain(`value="${t}-new"`);
    expect(badHtml).toContain('value="not-an-email"');
    expect(badHtml).not.toContain('value="short"');

    const ok = await c.postForm(`${SCREEN}?new=1`, {
      intent: 'create',
      username: `${t}-new`,
      email: `${t}-new@example.com`,
      password: 'Long-Enough-1',
      role: 'editor',
      companyId: String(ATLAS),
      isTemporaryPassword: 'on',
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('Location')).toBe(SCREEN);
    expect(await text(await c.get(SCREEN))).toContain('User created successfully');
    const row = await db()
      .selectFrom('users')
      .selectAll()
      .where('email', '=', `${t}-new@example.com`)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: `${t}-new`, role: 'editor', companyId: ATLAS });
    expect(Boolean(row.isTemporaryPassword)).toBe(true);

    // The same e-mail again: the service's conflict shows beside the field.
    const taken = await c.postForm(`${SCREEN}?new=1`, {
      intent: 'create',
      username: `${t}-other`,
      email: `${t}-new@example.com`,
      password: 'Long-Enough-1',
      role: 'viewer',
      companyId: 'all',
    });
    expect(taken.status).toBe(409);
    expect(await text(taken)).toContain('A user with this email already exists');
  });

  it('a temporary password is shown once in the action answer, never in the URL, a cookie or the next page', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const target = await createTestUser(db(), { role: 'viewer' });
    const response = await c.postForm(`${SCREEN}?q=${target.username}`, {
      intent: 'temporary-password',
      id: String(target.id),
      confirmed: '1',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('Location')).toBeNull();
    const html = await text(response);
    expect(html).toContain('Temporary Password Created');
    const password =
      html.match(/id="temporary-password" type="text" readonly="" [^>]*value="([^"]+)"/)?.[1] ??
      html.match(/<input[^>]*id="temporary-password"[^>]*value="([^"]+)"/)?.[1];
    expect(password).toBeTruthy();
    expect(html.split(password!).length - 1).toBe(1);
    expect(response.headers.getSetCookie().join(';')).not.toContain(password!);
    expect(await text(await c.get(SCREEN))).not.toContain(password!);
    const row = await db()
      .selectFrom('users')
      .select('isTemporaryPassword')
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect(Boolean(row.isTemporaryPassword)).toBe(true);
    // The user signs in with it and must change it.
    const other = client();
    const me = await other.login(target.email, password!);
    expect(JSON.stringify(me)).toContain('"mustChangePassword":true');
    expect((await other.get('/')).headers.get('Location')).toBe('/change-password');
  });

  it('deactivate, then reactivate, with success toasts', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const target = await createTestUser(db(), { role: 'editor' });
    const off = await c.postForm(`${SCREEN}?q=${target.username}`, {
      intent: 'deactivate',
      id: String(target.id),
      confirmed: '1',
    });
    expect(off.status).toBe(302);
    expect(off.headers.get('Location')).toBe(`${SCREEN}?q=${target.username}`);
    const after = await text(await c.get(`${SCREEN}?q=${target.username}&inactive=1`));
    expect(after).toContain('User deactivated successfully');
    expect(after).toContain(`aria-label="Activate ${target.username}"`);
    expect(
      Boolean(
        (await db().selectFrom('users').select('isActive').where('id', '=', target.id).executeTakeFirstOrThrow())
          .isActive,
      ),
    ).toBe(false);
    const on = await c.postForm(SCREEN, { intent: 'activate', id: String(target.id) });
    expect(on.status).toBe(302);
    expect(await text(await c.get(SCREEN))).toContain('User reactivated successfully');
    expect(
      Boolean(
        (await db().selectFrom('users').select('isActive').where('id', '=', target.id).executeTakeFirstOrThrow())
          .isActive,
      ),
    ).toBe(true);
  });

  it('without JavaScript a delete answers the confirmation first and deletes only when confirmed', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const target = await createTestUser(db(), { role: 'viewer' });
    const first = await c.postForm(SCREEN, { intent: 'delete', id: String(target.id), confirmed: '' });
    expect(first.status).toBe(200);
    const html = await text(first);
    expect(html).toContain(`Are you sure you want to delete user ${target.username}? This action cannot be undone.`);
    expect(html).toContain('>Confirm</button>');
    expect(await db().selectFrom('users').select('id').where('id', '=', target.id).executeTakeFirst()).toBeTruthy();
    const confirmed = await c.postForm(SCREEN, { intent: 'delete', id: String(target.id), confirmed: '1' });
    expect(confirmed.status).toBe(302);
    expect(await text(await c.get(SCREEN))).toContain('User deleted successfully');
    expect(await db().selectFrom('users').select('id').where('id', '=', target.id).executeTakeFirst()).toBeUndefined();
  });

  it('without JavaScript a temporary password and a deactivation ask first, naming the user; nothing changes and no session ends until confirmed', async () => {
    const { c } = await signedIn({ role: 'admin' });
    const target = await createTestUser(db(), { role: 'viewer' });
    const victim = client();
    await victim.login(target.email, TEST_PASSWORD);
    const sessions = async () =>
      (
        await db()
          .selectFrom('userSessions')
          .select('id')
          .where('userId', '=', target.id)
          .where('isActive', '=', true)
          .execute()
      ).length;
    expect(await sessions()).toBe(1);
    const hash = (
      await db().selectFrom('users').select('passwordHash').where('id', '=', target.id).executeTakeFirstOrThrow()
    ).passwordHash;

    const temporary = await c.postForm(`${SCREEN}?q=${target.username}`, {
      intent: 'temporary-password',
      id: String(target.id),
      confirmed: '',
    });
    expect(temporary.status).toBe(200);
    const asked = await text(temporary);
    expect(asked).toContain('data-testid="confirm-temporary-password"');
    expect(asked).toContain('Confirm temporary password');
    expect(asked).toContain(
      `Are you sure you want to create a temporary password for user ${target.username}? Their current password stops working and all their sessions end at once.`,
    );
    expect(asked).not.toContain('Temporary Password Created');
    // Confirm posts the same intent again, confirmed.
    expect(asked).toMatch(
      /<input type="hidden" name="intent" value="temporary-password"\/><input type="hidden" name="id" value="\d+"\/><input type="hidden" name="confirmed" value="1"\/>/,
    );

    const deactivate = await c.postForm(`${SCREEN}?q=${target.username}`, {
      intent: 'deactivate',
      id: String(target.id),
    });
    expect(deactivate.status).toBe(200);
    const askedOff = await text(deactivate);
    expect(askedOff).toContain('data-testid="confirm-deactivate"');
    expect(askedOff).toContain(
      `Are you sure you want to deactivate user ${target.username}? All their sessions end at once.`,
    );

    const row = await db()
      .selectFrom('users')
      .select(['passwordHash', 'isActive', 'isTemporaryPassword'])
      .where('id', '=', target.id)
      .executeTakeFirstOrThrow();
    expect([row.passwordHash, Boolean(row.isActive), Boolean(row.isTemporaryPassword)]).toEqual([hash, true, false]);
    expect(await sessions()).toBe(1);
    expect((await victim.get('/profile')).status).toBe(200);

    // Confirmed: done at once, and the user's session is over.
    expect((await c.postForm(SCREEN, { intent: 'deactivate', id: String(target.id), confirmed: '1' })).status).toBe(
      302,
    );
    expect(await sessions()).toBe(0);
    expect((await victim.get('/profile')).status).toBe(302);
  });

  it('an admin cannot deactivate or delete an owner (buttons disabled, posts refused with the reason), nor themselves', async () => {
    const { c, user } = await signedIn({ role: 'admin' });
    const owner = await db()
      .selectFrom('users')
      .select(['id', 'username'])
      .where('email', '=', 'owner@example.com')
      .executeTakeFirstOrThrow();
    const page = await text(await c.get(`${SCREEN}?q=owner%40example.com`));
    expect(page).toMatch(new RegExp(`<button[^>]*disabled=""[^>]*aria-label="Deactivate ${owner.username}"`));
    expect(page).toMatch(new RegExp(`<button[^>]*disabled=""[^>]*aria-label="Delete ${owner.username}"`));
    const post = await c.postForm(SCREEN, { intent: 'deactivate', id: String(owner.id) });
    expect(post.status).toBe(403);
    expect(await text(post)).toContain('Owners cannot be deactivated or deleted');
    expect(
      Boolean(
        (await db().selectFrom('users').select('isActive').where('id', '=', owner.id).executeTakeFirstOrThrow())
          .isActive,
      ),
    ).toBe(true);
    const del = await c.postForm(SCREEN, { intent: 'delete', id: String(owner.id), confirmed: '1' });
    expect(del.status).toBe(403);
    // One's own row: deactivate and delete disabled; a post is refused.
    const own = await text(await c.get(`${SCREEN}?q=${user.username}`));
    expect(own).toMatch(new RegExp(`<button[^>]*disabled=""[^>]*aria-label="Deactivate ${user.username}"`));
    const self = await c.postForm(SCREEN, { intent: 'deactivate', id: String(user.id) });
    expect(self.status).toBe(403);
    expect(await text(self)).toContain('You cannot deactivate or delete your own account');
  });

  it('edit and permissions forms save with the documented toasts; the other tabs render', async () => {
    const { c, user } = await signedIn({ role: 'admin' });
    const t = tag();
    const target = await named(`${t}-p`, { role: 'viewer' });
    const edit = await text(await c.get(`${SCREEN}?edit=${target.id}`));
    expect(edit).toContain('Edit User');
    const saved = await c.postForm(`${SCREEN}?edit=${target.id}`, {
      intent: 'update',
      id: String(target.id),
      username: `${t}-renamed`,
      email: `${t}-p@example.com`,
      role: 'editor',
      companyId: 'all',
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe(SCREEN);
    expect(await text(await c.get(SCREEN))).toContain('User updated successfully');

    const perms = await text(await c.get(`${SCREEN}?permissions=${target.id}`));
    expect(perms).toContain('User Permissions');
    expect(perms).toContain('Data Access');
    expect(perms).toContain('Manage Users');
    const granted = await c.postForm(SCREEN, {
      intent: 'permissions',
      id: String(target.id),
      canAccessAnalytics: 'on',
      canDelete: 'on',
    });
    expect(granted.status).toBe(302);
    expect(await text(await c.get(SCREEN))).toContain('User permissions updated successfully');
    const row = await db().selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ username: `${t}-renamed`, role: 'editor' });
    expect(Boolean(row.canAccessAnalytics)).toBe(true);
    expect(Boolean(row.canDelete)).toBe(true);
    expect(Boolean(row.canAccessBackups)).toBe(false);

    const stats = await text(await c.get(`${SCREEN}?tab=statistics`));
    for (const label of ['Total Users', 'Active Users', 'Inactive Users', 'Users by Role'])
      expect(stats).toContain(label);
    const analytics = await text(await c.get(`${SCREEN}?tab=analytics`));
    for (const label of ['Logins Today', 'Avg Session', 'Detailed User Activity', 'Activity Score'])
      expect(analytics).toContain(label);
    expect(analytics).toMatch(/\d+h \d+m/);
    const history = await text(await c.get(`${SCREEN}?tab=history&userId=${user.id}`));
    expect(history).toContain('Record ID');
    expect(history).toContain('data-testid="history-row"');
    const badHistory = await c.get(`${SCREEN}?tab=history&startDate=2026-02-01&endDate=2026-01-01`);
    expect(badHistory.status).toBe(200);
    expect(await text(badHistory)).toContain('endDate must not be before startDate');
  });

  it('Activity Analytics shows every user’s summary and their rows a page at a time', async () => {
    while ((await db().selectFrom('users').select('id').execute()).length <= HISTORY_PAGE_SIZE)
      await createTestUser(db());
    const { c } = await signedIn({ role: 'owner' });
    const total = (await db().selectFrom('users').select('id').execute()).length;
    const rows = (html: string) => (html.match(/data-testid="activity-row"/g) ?? []).length;
    const first = await text(await c.get(`${SCREEN}?tab=analytics`));
    expect(first).toMatch(new RegExp(`data-testid="analytics-total"[^]*?>${total}<`));
    expect(rows(first)).toBe(HISTORY_PAGE_SIZE);
    expect(first).toContain(`Page 1 of ${Math.ceil(total / HISTORY_PAGE_SIZE)}`);
    expect(first).toContain('tab=analytics&amp;page=2');
    const second = await text(await c.get(`${SCREEN}?tab=analytics&page=2`));
    expect(rows(second)).toBe(Math.min(HISTORY_PAGE_SIZE, total - HISTORY_PAGE_SIZE));
  });

  it('Activity History: with more users than a list can hold, the user filter is a text box taking a username or e-mail', async () => {
    while ((await db().selectFrom('users').select('id').execute()).length <= USER_CHOICES_MAX)
      await createTestUser(db());
    const { c, user } = await signedIn({ role: 'owner' });
    const listed = await text(await c.get(`${SCREEN}?tab=history`));
    expect(listed).toContain('type="text" name="userId"');
    const mine = await text(await c.get(`${SCREEN}?tab=history&userId=${encodeURIComponent(user.email)}`));
    expect(mine).toContain(`value="${user.username}"`);
    expect((mine.match(/data-testid="history-row"/g) ?? []).length).toBeGreaterThan(0);
    expect(await text(await c.get(`${SCREEN}?tab=history&userId=nobody-at-all`))).toContain(
      'No user matches “nobody-at-all”',
    );
  });
});
