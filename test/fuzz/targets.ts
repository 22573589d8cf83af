// The routes the fuzz suite drives, as data: { method, path, kind, body } with the generator of
// each request. The resource routes and screens are enumerated from the declarations
// (RESOURCE_LIST) and the route files that pass a declaration to resourceAction; the users,
// auth and settings routes and the custom screens are listed here. FUZZ_TARGETS is the list
// (method + path pattern + kind) another suite can compare with a route manifest.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import * as resources from '../../app/features/resources.ts';
import { findResource, RESOURCE_LIST } from '../../app/features/resources.ts';
import type { ResourceDef } from '../../app/platform/resources/define.ts';
import { apiIntegrationSources } from '../../app/features/integrations/resources.ts';
import { PERMISSION_FLAGS, ROLES } from '../../app/platform/lib/permissions.ts';
import {
  AUTO_LOGOUT_OPTIONS,
  CURRENCIES,
  DASHBOARD_CARDS,
  DATE_FORMATS,
  DEVICE_SWITCHES,
  LANGUAGES,
  REFRESH_INTERVALS,
  SESSION_TIMEOUT_OPTIONS,
  THEME_INPUTS,
  TIME_FORMATS,
  TIMEZONES,
} from '../../app/features/settings/user-settings.ts';
import { NOTIFICATION_TYPES } from '../../app/platform/session/user-settings-row.ts';
import {
  apiBody,
  deleteId,
  formBody,
  formId,
  listQuery,
  mutated,
  origin,
  Ref,
  rowId,
  validRecord,
  type FuzzCase,
} from './arbitraries.ts';

/** Who sends the request: the owner; a company-scoped editor (resource routes only); nobody signed in; a user whose own password may change. */
export type Actor = 'owner' | 'editor' | 'anonymous' | 'pwuser';

export interface FuzzTarget {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path pattern; `:id` is replaced by the case's id. */
  path: string;
  kind: 'api' | 'form';
  body: fc.Arbitrary<FuzzCase>;
  actors: readonly Actor[];
  /** Where real `:id`s (and form ids) come from: a table (camelCase), fuzz victims, or the signed-in user. */
  idFrom?: string;
  /** Audit entries an accepted (2xx/3xx) request leaves: exactly one, or none or one (no-op writes, confirmation steps, GETs). */
  audit: 'one' | 'atMostOne' | 'none';
  /**
   * Rows one record write may touch (default 1): a pivot record is one row per part of its
   * source, each written with its own audit entry and version, so 'one' means 1 to this many.
   */
  rowsPerRecord?: number;
  /**
   * A sign-in target: the throttle counters are cleared before each case, and an accepted
   * sign-in leaves a `login` audit entry that is an event, not a record write (no version).
   */
  signIn?: boolean;
  /** Its audit entries are events about a record (a backup made, restored, deleted), with no data version. */
  event?: boolean;
  /**
   * It takes a file, not JSON (an import's CSV), with a size limit of its own: no JSON field is
   * "unknown" to it, and a body above MAX_BODY_BYTES is read (and refused for not being a file).
   */
  file?: true;
}

/** Table name used for users created as targets of the user-management routes. */
export const VICTIMS = 'victims';
export const SELF = 'self';

const withId = (id: fc.Arbitrary<FuzzCase['id']>, rest: fc.Arbitrary<Omit<FuzzCase, 'id'>>) =>
  fc.tuple(id, rest).map(([i, r]): FuzzCase => ({ ...r, id: i }));
const apiCase = (body: fc.Arbitrary<Record<string, unknown>>) => fc.record({ api: apiBody(mutated(body)), origin });
const getCase = (params: readonly string[]) =>
  fc.record({ query: listQuery(params), origin: fc.constant('same' as const) });

// ---------------------------------------------------------------------------------------------
// Resources

/** Every /api path of a resource (Vult's answer at two spellings). */
function resourceApiTargets(def: ResourceDef): FuzzTarget[] {
  return (def.apiPaths ?? [{ path: def.key }]).flatMap(({ path: p }) => resourcePathTargets(def, `/api/${p}`));
}

function resourcePathTargets(def: ResourceDef, base: string): FuzzTarget[] {
  const actors = ['owner', 'editor'] as const;
  const listParams = [
    'limit',
    'offset',
    'sortBy',
    'sortOrder',
    'sort',
    'order',
    'q',
    'search',
    'companyId',
    ...(def.list.filter ? [def.list.filter.param] : []),
    ...(def.list.exact ?? []),
  ];
  const rowsPerRecord = def.pivot ? Object.keys(def.pivot.parts).length : undefined;
  const targets: FuzzTarget[] = [
    { method: 'POST', path: base, kind: 'api', actors, audit: 'one', body: apiCase(validRecord(def)) },
    // An update that changes nothing writes nothing (no audit entry, no version).
    {
      method: 'PUT',
      path: `${base}/:id`,
      kind: 'api',
      actors,
      audit: 'atMostOne',
      idFrom: def.table,
      body: withId(
        rowId,
        apiCase(
          validRecord(def).chain((r) =>
            fc.subarray(Object.keys(r)).map((keys) => Object.fromEntries(keys.map((k) => [k, r[k]]))),
          ),
        ),
      ),
    },
    {
      method: 'DELETE',
      path: `${base}/:id`,
      kind: 'api',
      actors,
      audit: 'one',
      idFrom: def.table,
      body: withId(deleteId, fc.record({ origin })),
    },
    { method: 'GET', path: base, kind: 'api', actors, audit: 'none', body: getCase(listParams) },
  ];
  return targets.map((target) => ({ ...target, rowsPerRecord }));
}

/** A route file's source, or that of the module its action is re-exported from (a thin route). */
function actionSource(routeFile: string): string {
  const source = fs.readFileSync(routeFile, 'utf8');
  const from = /export \{[^}]*\baction\b[^}]*\} from '([^']+)'/.exec(source)?.[1];
  return from ? fs.readFileSync(path.resolve(path.dirname(routeFile), from), 'utf8') : source;
}

/**
 * Screen paths of the resources: route files `_shell.<path>.tsx` whose action (in the file or
 * the module a thin route re-exports it from) is `resourceAction(<def>, …)`, whose tabs are
 * `resourceTabs({ <tab>: <def>, … })` or whose access is `resourceScreenAccess(<def>)` (the
 * default tab's resource: the others run the same generic action and are fuzzed by their API).
 */
export function resourceScreens(
  routesDir = path.resolve(import.meta.dirname, '../../app/routes'),
): { path: string; def: ResourceDef }[] {
  const byName = resources as unknown as Record<string, ResourceDef | undefined>;
  const screens: { path: string; def: ResourceDef }[] = [];
  for (const file of fs.readdirSync(routesDir).sort()) {
    const match = /^_shell\.([a-z0-9-]+)\.tsx$/.exec(file);
    if (!match) continue;
    const source = actionSource(path.join(routesDir, file));
    const name = (/resourceAction\(\s*(\w+)\s*,/.exec(source) ??
      /resourceTabs\(\{\s*[\w'-]+:\s*(\w+)/.exec(source) ??
      /resourceScreenAccess\(\s*(\w+)/.exec(source))?.[1];
    const def = name ? byName[name] : undefined;
    if (def && findResource(def.key)) screens.push({ path: `/${match[1]}`, def });
  }
  return screens;
}

function resourceFormTarget(screen: { path: string; def: ResourceDef }): FuzzTarget {
  return {
    method: 'POST',
    path: screen.path,
    kind: 'form',
    actors: ['owner', 'editor'],
    audit: 'atMostOne',
    idFrom: screen.def.table,
    body: fc.record({
      form: formBody(
        ['create', 'update', 'delete'],
        mutated(validRecord(screen.def)),
        fc.oneof(
          { weight: 3, arbitrary: fc.nat({ max: 1000 }).map((n) => new Ref(screen.def.table, n)) },
          { weight: 1, arbitrary: formId },
        ),
      ),
      origin,
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Users, auth, settings

const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 6, maxLength: 10 });
const email = hex.map((h) => `fuzz-${h}@example.com`);
const username = hex.map((h) => `fuzz-${h}`);
const password = fc.constantFrom(
  'Password-123',
  'Another-Pass-9',
  'short',
  '12345678',
  'x'.repeat(200),
  '密码密码密码密码',
);
const companyRef = fc.oneof(
  fc.nat({ max: 100 }).map((n) => new Ref('companies', n)),
  fc.constantFrom<unknown>('all', null, ''),
);
const role = fc.constantFrom(...ROLES);
const victimRef = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 100 }).map((n) => new Ref(VICTIMS, n)) },
  { weight: 1, arbitrary: formId },
);

const newUserFields = {
  username,
  email,
  role,
  companyId: companyRef,
  fullName: fc.constantFrom('Fuzz User', null, ''),
};
const userWithPassword = fc.record({ ...newUserFields, password, isTemporaryPassword: fc.boolean() });
/** The API: a given password, or (the explicit option) a generated one. */
const newUser = fc.oneof(
  { weight: 3, arbitrary: userWithPassword },
  { weight: 1, arbitrary: fc.record({ ...newUserFields, temporaryPassword: fc.constant(true) }) },
);
const userEdit = fc.record({ username, email, role, companyId: companyRef });
const profile = fc.record({
  username,
  email,
  fullName: fc.constantFrom('Fuzz Self', null, ''),
  position: fc.constantFrom('CFO', null),
  phoneNumber: fc.constantFrom('+1 (555) 010-0101', null, '', 'abc'),
});
const permissions = fc.record(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, fc.boolean()])) as Record<string, fc.Arbitrary<boolean>>,
  { requiredKeys: [] },
);
const changePassword = fc
  .record({
    currentPassword: fc.constantFrom('Test-Password-1', 'Test-Password-1', 'wrong-password'),
    newPassword: password,
    confirmPassword: password,
    confirmed: fc.boolean(),
  })
  .map(({ confirmed, ...p }) => (confirmed ? { ...p, confirmPassword: p.newPassword } : p));
/** Valid settings values (the lists the schema accepts); the mutator brings the invalid ones. */
const settings = fc.record(
  {
    emailNotifications: fc.boolean(),
    pushNotifications: fc.boolean(),
    notificationTypes: fc.record(
      Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, fc.boolean()])) as Record<string, fc.Arbitrary<boolean>>,
      { requiredKeys: [] },
    ),
    theme: fc.constantFrom(...THEME_INPUTS),
    language: fc.constantFrom(...LANGUAGES),
    timezone: fc.constantFrom(...TIMEZONES),
    dateFormat: fc.constantFrom(...DATE_FORMATS),
    timeFormat: fc.constantFrom(...TIME_FORMATS),
    dashboardLayout: fc.record(
      {
        cards: fc.subarray([...DASHBOARD_CARDS]),
        autoRefresh: fc.boolean(),
        refreshInterval: fc.constantFrom(...REFRESH_INTERVALS),
      },
      { requiredKeys: [] },
    ),
    shareActivityStatus: fc.boolean(),
    shareProfileInfo: fc.boolean(),
    autoLogout: fc.constantFrom(...AUTO_LOGOUT_OPTIONS),
    sessionTimeout: fc.constantFrom(...SESSION_TIMEOUT_OPTIONS),
    defaultCurrency: fc.constantFrom(...CURRENCIES),
    reportEmails: fc.boolean(),
    securityAlerts: fc.boolean(),
    compactSidebar: fc.boolean(),
    animations: fc.boolean(),
  },
  { requiredKeys: [] },
);
/** The settings tabs' forms: checkboxes post 'on', selects their value. */
const settingsForm = fc
  .record(
    {
      pushNotifications: fc.constantFrom('on', undefined),
      theme: fc.constantFrom('light', 'dark', 'system', 'auto', 'neon'),
      compactSidebar: fc.constantFrom('on', undefined),
      animations: fc.constantFrom('on', undefined),
      language: fc.constantFrom('en', 'es', 'xx'),
      timezone: fc.constantFrom('UTC', 'Mars/Base'),
      dateFormat: fc.constantFrom('MM/dd/yyyy', 'nope'),
      timeFormat: fc.constantFrom('12h', '24h'),
      defaultCurrency: fc.constantFrom('USD', 'XXX'),
      emailNotifications: fc.constantFrom('on', undefined),
      reportEmails: fc.constantFrom('on', undefined),
      shareActivityStatus: fc.constantFrom('on', undefined),
      shareProfileInfo: fc.constantFrom('on', undefined),
      autoRefresh: fc.constantFrom('on', undefined),
      refreshInterval: fc.constantFrom('30', '60', '7', '1e1'),
      securityAlerts: fc.constantFrom('on', undefined),
      sessionTimeout: fc.constantFrom('30', '0', '7'),
      autoLogout: fc.constantFrom('480', '7'),
      ...Object.fromEntries(
        [...NOTIFICATION_TYPES.map((t) => `notificationTypes.${t}`), ...DEVICE_SWITCHES].map((n) => [
          n,
          fc.constantFrom('on', undefined),
        ]),
      ),
    },
    { requiredKeys: [] },
  )
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
/** A second sign-in step: a challenge (none live: the fuzzer finds none) and a code of either kind. */
const secondStep = fc.record(
  {
    challenge: fc.constantFrom('no-such-challenge', '', 'x'.repeat(300)),
    code: fc.constantFrom('123456', ' 123 456 ', 'abcde-fghjk', '', '1'.repeat(40)),
    redirectTo: fc.constantFrom('/', '//evil.example', 'https://evil.example/'),
  },
  { requiredKeys: [] },
);
/** Turning one's own second factor on, off, or renewing its codes: a password and a code. */
const ownTwoFactor = fc.record(
  {
    code: fc.constantFrom('123456', '000000', 'abcde-fghjk', ''),
    currentPassword: fc.constantFrom('Test-Password-1', 'wrong-password'),
  },
  { requiredKeys: [] },
);
const login = fc.record(
  {
    email: fc.constantFrom(
      'login-user@example.com',
      'login-user@example.com',
      'LOGIN-USER@example.com ',
      'nobody@example.com',
      'not-an-email',
    ),
    password: fc.constantFrom('Test-Password-1', 'wrong-password-1'),
    rememberMe: fc.boolean(),
    redirectTo: fc.constantFrom('/', '//evil.example', 'https://evil.example/', '/settings', 'javascript:alert(1)'),
  },
  { requiredKeys: ['email', 'password'] },
);
const userListParams = ['limit', 'offset', 'sortBy', 'sortOrder', 'search', 'role', 'company', 'isActive', 'page'];
const historyParams = [
  'limit',
  'offset',
  'userId',
  'action',
  'tableName',
  'startDate',
  'endDate',
  'from',
  'to',
  'search',
];

function userTargets(): FuzzTarget[] {
  const owner = ['owner'] as const;
  const victimPath = (
    suffix: string,
    method: FuzzTarget['method'],
    body: fc.Arbitrary<Record<string, unknown>> | null,
    audit: FuzzTarget['audit'],
  ): FuzzTarget => ({
    method,
    path: `/api/users/:id${suffix}`,
    kind: 'api',
    actors: owner,
    audit,
    idFrom: VICTIMS,
    body: withId(rowId, body ? apiCase(body) : fc.record({ origin })),
  });
  return [
    { method: 'POST', path: '/api/users', kind: 'api', actors: owner, audit: 'one', body: apiCase(newUser) },
    victimPath('', 'PUT', userEdit, 'atMostOne'),
    {
      method: 'PATCH',
      path: '/api/users/:id',
      kind: 'api',
      actors: owner,
      audit: 'atMostOne',
      idFrom: SELF,
      body: withId(
        fc.oneof({ weight: 4, arbitrary: fc.constant({ real: 0 }) }, { weight: 1, arbitrary: rowId }),
        apiCase(profile),
      ),
    },
    victimPath('/permissions', 'PUT', permissions, 'atMostOne'),
    victimPath(
      '/change-password',
      'POST',
      fc.record({ currentPassword: fc.constantFrom('x', undefined), newPassword: password }, { requiredKeys: [] }),
      'one',
    ),
    victimPath('/temporary-password', 'POST', null, 'one'),
    victimPath('/deactivate', 'PUT', null, 'atMostOne'),
    victimPath('/reactivate', 'PUT', null, 'atMostOne'),
    victimPath('', 'DELETE', null, 'one'),
    {
      method: 'POST',
      path: '/api/auth/login',
      kind: 'api',
      actors: ['anonymous'],
      audit: 'atMostOne',
      signIn: true,
      body: apiCase(login),
    },
    {
      method: 'POST',
      path: '/api/auth/two-factor',
      kind: 'api',
      actors: ['anonymous'],
      audit: 'atMostOne',
      signIn: true,
      body: apiCase(secondStep),
    },
    {
      method: 'POST',
      path: '/api/auth/change-password',
      kind: 'api',
      actors: ['pwuser'],
      audit: 'one',
      body: apiCase(changePassword),
    },
    {
      method: 'PUT',
      path: '/api/user-settings',
      kind: 'api',
      actors: owner,
      audit: 'atMostOne',
      body: apiCase(settings),
    },
    { method: 'GET', path: '/api/users', kind: 'api', actors: owner, audit: 'none', body: getCase(userListParams) },
    {
      method: 'GET',
      path: '/api/users/activity/history',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: getCase(historyParams),
    },
  ];
}

function screenTargets(): FuzzTarget[] {
  const form = (fields: fc.Arbitrary<[string, unknown][]>) => fc.record({ form: fields, origin });
  const userForm = fc
    .oneof(
      userWithPassword.map((u) => ({ ...u, isTemporaryPassword: u.isTemporaryPassword ? 'on' : undefined })),
      userEdit,
      permissions.map((p) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v ? 'on' : 'off']))),
    )
    .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
  return [
    {
      method: 'POST',
      path: '/user-management',
      kind: 'form',
      actors: ['owner'],
      audit: 'atMostOne',
      idFrom: VICTIMS,
      body: form(
        formBody(
          [
            'create',
            'update',
            'permissions',
            'temporary-password',
            'reset-two-factor',
            'deactivate',
            'activate',
            'delete',
          ],
          mutated(userForm),
          victimRef,
        ),
      ),
    },
    {
      method: 'POST',
      path: '/profile',
      kind: 'form',
      actors: ['pwuser'],
      audit: 'atMostOne',
      body: form(formBody(['profile', 'password'], mutated(fc.oneof(profile, changePassword)))),
    },
    {
      method: 'POST',
      path: '/settings',
      kind: 'form',
      actors: ['owner'],
      audit: 'atMostOne',
      body: form(
        formBody(['notifications', 'appearance', 'preferences', 'security', 'clear-cache'], mutated(settingsForm)),
      ),
    },
    {
      method: 'POST',
      path: '/two-factor',
      kind: 'form',
      actors: ['pwuser'],
      audit: 'atMostOne',
      body: form(formBody(['start', 'confirm', 'renew', 'disable'], mutated(ownTwoFactor))),
    },
    {
      method: 'POST',
      path: '/login/two-factor',
      kind: 'form',
      actors: ['anonymous'],
      audit: 'atMostOne',
      signIn: true,
      body: form(formBody(['verify'], mutated(secondStep))),
    },
    {
      method: 'POST',
      path: '/system-settings',
      kind: 'form',
      actors: ['owner'],
      audit: 'atMostOne',
      // Never saved on: every owner and admin actor would be sent to /two-factor for the rest of the run.
      body: form(
        formBody(
          ['twoFactorPolicy'],
          mutated(fc.record({ requireForAdmins: fc.constantFrom('off', 'yes', 'true', '') }, { requiredKeys: [] })).map(
            (r) => (r.requireForAdmins === 'on' ? { ...r, requireForAdmins: 'off' } : r),
          ),
        ),
      ),
    },
    {
      method: 'POST',
      path: '/change-password',
      kind: 'form',
      actors: ['pwuser'],
      audit: 'atMostOne',
      body: form(formBody(['change'], mutated(changePassword))),
    },
    {
      method: 'POST',
      path: '/login',
      kind: 'form',
      actors: ['anonymous'],
      audit: 'atMostOne',
      signIn: true,
      body: form(
        formBody(['login'], mutated(login.map((l) => ({ ...l, rememberMe: l.rememberMe ? 'on' : undefined })))),
      ),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Audit trail

function auditTargets(): FuzzTarget[] {
  const owner = ['owner'] as const;
  return [
    {
      method: 'GET',
      path: '/api/audit-logs',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: getCase(['tableName', 'userId', 'recordId', 'action', 'from', 'to', 'q', 'limit', 'offset']),
    },
    {
      method: 'GET',
      path: '/api/data-versions',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: getCase(['tableName', 'recordId']),
    },
    // A restore is one audited write, or a refusal (already current, a reference gone) that writes nothing.
    {
      method: 'POST',
      path: '/api/data-versions/:id/restore',
      kind: 'api',
      actors: owner,
      audit: 'atMostOne',
      idFrom: 'dataVersions',
      body: withId(rowId, fc.record({ origin })),
    },
    // The screen's restore: a confirmation step, or (confirmed) the same restore.
    {
      method: 'POST',
      path: '/audit-trail',
      kind: 'form',
      actors: owner,
      audit: 'atMostOne',
      body: fc.record({
        form: formBody(
          ['restore'],
          mutated(
            fc.record({
              versionId: fc.oneof(
                { weight: 3, arbitrary: fc.nat({ max: 1000 }).map((n) => new Ref('dataVersions', n)) },
                { weight: 1, arbitrary: formId },
              ),
            }),
          ),
        ),
        origin,
      }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Backups

function backupTargets(): FuzzTarget[] {
  const owner = ['owner'] as const;
  const request = fc.record(
    {
      name: fc.string({ maxLength: 40 }),
      description: fc.string({ maxLength: 60 }),
      tables: fc.subarray(['departments', 'companies', 'expense_categories', 'budgets', 'users']),
      includeAuditLogs: fc.boolean(),
      includeVersions: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  return [
    {
      method: 'POST',
      path: '/api/backups',
      kind: 'api',
      actors: owner,
      audit: 'one',
      event: true,
      body: apiCase(request),
    },
    // Without overwrite: adds the backup's missing rows (one restore entry), or refuses (in progress, a clash).
    {
      method: 'POST',
      path: '/api/backups/:id/restore',
      kind: 'api',
      actors: owner,
      audit: 'atMostOne',
      event: true,
      idFrom: 'backups',
      body: withId(rowId, apiCase(fc.record({}))),
    },
    {
      method: 'DELETE',
      path: '/api/backups/:id',
      kind: 'api',
      actors: owner,
      audit: 'atMostOne',
      event: true,
      idFrom: 'backups',
      body: withId(deleteId, fc.record({ origin })),
    },
    {
      method: 'POST',
      path: '/api/backups/scheduled',
      kind: 'api',
      actors: owner,
      audit: 'one',
      event: true,
      body: apiCase(fc.record({})),
    },
    // The screen: a create (one entry), a verify (none), a restore without overwrite or a delete
    // (one entry, or none at their confirmation step or a refusal).
    {
      method: 'POST',
      path: '/backup-recovery',
      kind: 'form',
      actors: owner,
      audit: 'atMostOne',
      event: true,
      idFrom: 'backups',
      body: fc.record({
        form: formBody(
          ['create', 'scheduled', 'verify', 'restore', 'delete'],
          mutated(
            request
              .map((r) => ({
                ...r,
                tables: r.tables?.[0],
                includeAuditLogs: r.includeAuditLogs ? 'on' : undefined,
                includeVersions: r.includeVersions ? 'on' : undefined,
              }))
              .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined))),
          ),
          fc.oneof(
            { weight: 3, arbitrary: fc.nat({ max: 1000 }).map((n) => new Ref('backups', n)) },
            { weight: 1, arbitrary: formId },
          ),
        ),
        origin,
      }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Notifications and push subscriptions (no audit entries: a user's read state and browsers are
// not domain rows)

function notificationTargets(): FuzzTarget[] {
  const owner = ['owner'] as const;
  const base64url = (bytes: number) =>
    fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('base64url'));
  const subscription = fc.record(
    {
      endpoint: fc.oneof(
        fc.string({ minLength: 1, maxLength: 20 }).map((s) => `https://1.1.1.1/push/${encodeURIComponent(s)}`),
        fc.constantFrom(
          'http://1.1.1.1/push/x',
          'https://127.0.0.1/push',
          'https://10.0.0.1/push',
          'https://[::1]/push',
          'ftp://1.1.1.1/x',
          'not a url',
          '',
        ),
        fc.webUrl(),
      ),
      keys: fc.record(
        {
          p256dh: fc.oneof(
            base64url(65).map((k) => `BC${k.slice(2)}`),
            base64url(64),
            fc.string(),
          ),
          auth: fc.oneof(base64url(16), fc.string()),
        },
        { requiredKeys: [] },
      ),
      expirationTime: fc.constantFrom(null, 0),
    },
    { requiredKeys: [] },
  );
  const noteId = fc.oneof(
    { weight: 3, arbitrary: fc.nat({ max: 1000 }).map((n) => new Ref('notifications', n)) },
    { weight: 1, arbitrary: formId },
  );
  return [
    {
      method: 'GET',
      path: '/api/notifications',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: getCase(['isRead', 'category', 'limit', 'offset']),
    },
    {
      method: 'POST',
      path: '/api/notifications/:id/read',
      kind: 'api',
      actors: owner,
      audit: 'none',
      idFrom: 'notifications',
      body: withId(rowId, fc.record({ origin })),
    },
    {
      method: 'POST',
      path: '/api/notifications/:id/dismiss',
      kind: 'api',
      actors: owner,
      audit: 'none',
      idFrom: 'notifications',
      body: withId(rowId, fc.record({ origin })),
    },
    {
      method: 'POST',
      path: '/api/notifications/mark-all-read',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(fc.record({})),
    },
    {
      method: 'POST',
      path: '/api/notifications/subscribe',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(subscription),
    },
    {
      method: 'POST',
      path: '/api/notifications/unsubscribe',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(fc.record({ endpoint: fc.string({ maxLength: 40 }) }, { requiredKeys: [] })),
    },
    {
      method: 'POST',
      path: '/api/notifications/test',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(fc.record({})),
    },
    {
      method: 'POST',
      path: '/notifications',
      kind: 'form',
      actors: owner,
      audit: 'none',
      idFrom: 'notifications',
      body: fc.record({ form: formBody(['read', 'dismiss', 'mark-all-read'], mutated(fc.record({})), noteId), origin }),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// AI analytics (reads: no audit entries)

function aiTargets(): FuzzTarget[] {
  const owner = ['owner'] as const;
  const id = fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(null), fc.string({ maxLength: 6 }), fc.integer());
  return [
    {
      method: 'POST',
      path: '/api/ai/predict-expenses',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(
        fc.record(
          {
            companyId: id,
            departmentId: id,
            categoryId: id,
            months: fc.oneof(fc.constantFrom(1, 3, 6, 12, '3'), fc.integer(), fc.string({ maxLength: 3 })),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    {
      method: 'POST',
      path: '/api/ai/chat',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(
        fc.record(
          {
            message: fc.oneof(
              fc.constantFrom(
                'total expenses in 2026',
                'top categories last year',
                'Is Vult over budget?',
                'any anomalies in the last 90 days',
                'forecast the next 12 months',
                'revenue of One Network in March',
              ),
              fc.string({ maxLength: 80 }),
            ),
            context: fc.oneof(
              fc.constant({}),
              fc.record(
                { companyId: id, topic: fc.constantFrom('budget', 'expenses', 'nonsense') },
                { requiredKeys: [] },
              ),
              fc.constant(null),
            ),
            history: fc.array(
              fc.record({ type: fc.constantFrom('user', 'assistant'), content: fc.string({ maxLength: 20 }) }),
              { maxLength: 5 },
            ),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    {
      method: 'POST',
      path: '/ai-analytics',
      kind: 'form',
      actors: owner,
      audit: 'none',
      body: fc.record({
        form: formBody(
          ['generate', 'chat', 'clear'],
          mutated(
            fc.record(
              {
                message: fc.oneof(
                  fc.constantFrom('total expenses', 'top categories', 'budget of Vult', 'and in 2025?'),
                  fc.string({ maxLength: 40 }),
                ),
                companyId: fc.oneof(fc.constantFrom('1', '2', ''), fc.string({ maxLength: 4 })),
              },
              { requiredKeys: [] },
            ),
          ),
        ),
        origin,
      }),
    },
    {
      method: 'POST',
      path: '/api/ai/chat/stream',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(
        fc.record(
          {
            message: fc.oneof(
              fc.constantFrom('total expenses in 2026', 'and last year?', 'any anomalies?'),
              fc.string({ maxLength: 80 }),
              fc.integer(),
              fc.constant(null),
            ),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    {
      method: 'POST',
      path: '/api/ai/detect-anomalies',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: apiCase(
        fc.record(
          {
            companyId: id,
            departmentId: id,
            lookbackDays: fc.oneof(fc.constantFrom(7, 14, 30, 90, '30'), fc.integer(), fc.string({ maxLength: 3 })),
          },
          { requiredKeys: [] },
        ),
      ),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// API integrations (the sources and endpoints are resources: fuzzed with them)

function integrationTargets(): FuzzTarget[] {
  const owner = ['owner'] as const;
  const sourceRef = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constantFrom('1', '2', '', 'x', null), fc.integer());
  return [
    {
      method: 'POST',
      path: '/api/api-integration-credentials',
      kind: 'api',
      actors: owner,
      audit: 'atMostOne',
      body: apiCase(
        fc.record(
          {
            sourceId: sourceRef,
            credentialKey: fc.oneof(
              fc.constantFrom('token', 'X-Api-Key', 'username', ''),
              fc.string({ maxLength: 120 }),
            ),
            credentialValue: fc.oneof(fc.constantFrom('s3cret', ''), fc.string({ maxLength: 60 })),
            description: fc.oneof(fc.constant(null), fc.string({ maxLength: 40 })),
            expiresAt: fc.constantFrom(undefined, '', '2030-01-01', '2030-01-01T00:00:00Z', 'soon'),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    {
      // The screen: the sources' forms (its default tab), Sync Now and the credential form.
      method: 'POST',
      path: '/api-integrations',
      kind: 'form',
      actors: owner,
      audit: 'atMostOne',
      idFrom: 'apiIntegrationSources',
      body: fc.record({
        form: formBody(
          ['create', 'update', 'delete', 'sync', 'credential'],
          mutated(
            fc
              .tuple(
                validRecord(apiIntegrationSources),
                fc.record({
                  sourceId: fc.constantFrom('1', '2', '', 'x'),
                  credentialKey: fc.constantFrom('token', ''),
                  credentialValue: fc.constantFrom('v', ''),
                }),
              )
              .map(([r, c]) => ({ ...r, ...c })),
          ),
          fc.oneof(
            { weight: 3, arbitrary: fc.nat({ max: 1000 }).map((n) => new Ref('apiIntegrationSources', n)) },
            { weight: 1, arbitrary: formId },
          ),
        ),
        origin,
      }),
    },
    {
      method: 'POST',
      path: '/api/api-integration-sync/:id',
      kind: 'api',
      actors: owner,
      audit: 'none',
      idFrom: 'apiIntegrationEndpoints',
      body: withId(rowId, apiCase(fc.record({ userId: fc.constantFrom(1, 2, 'x') }, { requiredKeys: [] }))),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// System Monitoring (the fuzz database gets open system errors to resolve)

function monitoringTargets(): FuzzTarget[] {
  const owner = ['owner'] as const;
  const resolution = fc.oneof(
    fc.constantFrom('Restarted the worker', '', '   '),
    fc.string({ maxLength: 80 }),
    fc.integer(),
    fc.constant(null),
  );
  return [
    {
      method: 'POST',
      path: '/api/system/errors/:id/resolve',
      kind: 'api',
      actors: owner,
      audit: 'atMostOne',
      idFrom: 'systemErrors',
      body: withId(rowId, apiCase(fc.record({ resolution }, { requiredKeys: [] }))),
    },
    {
      method: 'POST',
      path: '/system-monitoring',
      kind: 'form',
      actors: owner,
      audit: 'atMostOne',
      body: fc.record({
        form: formBody(
          ['resolve'],
          mutated(fc.record({ resolution: fc.oneof(fc.constantFrom('Fixed', ''), fc.string({ maxLength: 40 })) })),
          fc.oneof(
            { weight: 3, arbitrary: fc.nat({ max: 1000 }).map((n) => new Ref('systemErrors', n)) },
            { weight: 1, arbitrary: formId },
          ),
        ),
        origin,
      }),
    },
    {
      method: 'GET',
      path: '/api/system/errors',
      kind: 'api',
      actors: owner,
      audit: 'none',
      body: getCase(['status', 'limit', 'offset']),
    },
    // An activity's row changed through its resource's rules (most ids name someone else's activity: 404).
    {
      method: 'PATCH',
      path: '/api/editor/activities/:id',
      kind: 'api',
      actors: ['owner', 'editor'],
      audit: 'atMostOne',
      idFrom: 'auditLogs',
      body: withId(
        rowId,
        apiCase(
          fc.record(
            {
              description: fc.oneof(fc.constant('patched'), fc.string({ maxLength: 60 }), fc.constant(null)),
              amount: fc.oneof(fc.constantFrom(10, 0, -1, '12.50', 'x'), fc.double()),
            },
            { requiredKeys: [] },
          ),
        ),
      ),
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Imports: a fuzzed request never carries a CSV file (a JSON body, a urlencoded form), so it is
// refused before anything is read or written; a check of its own imports a real file
// (app/features/imports).

function importTargets(): FuzzTarget[] {
  const form = (fields: fc.Arbitrary<[string, unknown][]>) => fc.record({ form: fields, origin });
  const fields = fc.record(
    {
      table: fc.constantFrom('budgets', 'actual-expenses', 'users', '', 'budgets ', '../x'),
      mode: fc.constantFrom('all', 'valid', 'some', ''),
      dryRun: fc.constantFrom('true', 'false', 'yes', ''),
      updateById: fc.constantFrom('on', 'true', ''),
      allowDuplicate: fc.constantFrom('on', ''),
      'column.amount': fc.constantFrom('0', '1', '-1', 'x', '99999'),
    },
    { requiredKeys: [] },
  );
  return [
    {
      method: 'POST',
      path: '/api/imports',
      kind: 'api',
      actors: ['owner'],
      audit: 'none',
      file: true,
      body: apiCase(fields),
    },
    {
      method: 'POST',
      path: '/imports',
      kind: 'form',
      actors: ['owner'],
      audit: 'none',
      file: true,
      body: form(formBody(['upload', 'columns', 'import'], mutated(fields), formId)),
    },
  ];
}

/** Every fuzzed route with its generator. */
export const TARGETS: readonly FuzzTarget[] = [
  ...monitoringTargets(),
  ...RESOURCE_LIST.filter((def) => !def.readOnly).flatMap(resourceApiTargets),
  ...userTargets(),
  ...auditTargets(),
  ...backupTargets(),
  ...notificationTargets(),
  ...aiTargets(),
  ...integrationTargets(),
  ...importTargets(),
  ...resourceScreens()
    .filter((s) => !s.def.readOnly)
    .map(resourceFormTarget),
  ...screenTargets(),
];

/** What is covered, for a comparison with a route manifest: method, path pattern, kind. */
export const FUZZ_TARGETS: readonly { method: FuzzTarget['method']; path: string; kind: FuzzTarget['kind'] }[] =
  TARGETS.map(({ method, path: p, kind }) => ({ method, path: p, kind }));
