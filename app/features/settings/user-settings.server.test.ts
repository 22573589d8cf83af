// The user-settings schema (its option lists) and service (defaults on first read,
// partial updates, audit), on every test dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { userContext, noEngine } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { rejection } from '../../../test/assertions.ts';
import {
  appearanceClasses,
  AUTO_LOGOUT_OPTIONS,
  CURRENCIES,
  DATE_FORMATS,
  LANGUAGES,
  REFRESH_INTERVALS,
  SESSION_TIMEOUT_OPTIONS,
  TIMEZONES,
} from './user-settings.ts';
import { DEFAULT_SETTINGS } from '../../platform/session/user-settings-row.ts';
import { UserSettingsPatchSchema } from './user-settings-schema.ts';
import { systemActor, type Db } from '../../platform/context.ts';
import { isDomainError } from '../../platform/errors.ts';
import {
  findUserSettings,
  getUserSettings,
  parseSettingsPatch,
  readAppearance,
  updateUserSettings,
} from './user-settings.server.ts';

describe('user settings schema', () => {
  const ok = (input: unknown) => UserSettingsPatchSchema.safeParse(input).success;

  it('holds the documented lists', () => {
    expect(LANGUAGES).toEqual(['en', 'es', 'fr', 'de']);
    expect(TIMEZONES).toEqual([
      'UTC',
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Los_Angeles',
      'Europe/London',
      'Europe/Madrid',
      'Europe/Paris',
      'Europe/Berlin',
    ]);
    expect(DATE_FORMATS).toEqual(['MM/dd/yyyy', 'dd/MM/yyyy', 'yyyy-MM-dd']);
    expect(CURRENCIES).toEqual(['USD', 'EUR', 'GBP', 'CAD']);
    expect(REFRESH_INTERVALS).toEqual([15, 30, 60, 300]);
    expect(AUTO_LOGOUT_OPTIONS).toEqual([60, 240, 480, 1440]);
    // Pop-over 15/30/60/120 min and security tab 1 h/8 h/24 h/never.
    expect(SESSION_TIMEOUT_OPTIONS).toEqual(expect.arrayContaining([15, 30, 60, 120, 480, 1440, 0]));
    expect(DEFAULT_SETTINGS).toMatchObject({
      theme: 'light',
      language: 'en',
      timezone: 'UTC',
      dateFormat: 'MM/dd/yyyy',
      timeFormat: '12h',
      autoLogout: 480,
      sessionTimeout: 30,
    });
    expect(DEFAULT_SETTINGS.dashboardLayout.refreshInterval).toBe(30);
  });

  it('accepts every listed value and an empty update', () => {
    expect(ok({})).toBe(true);
    for (const theme of ['light', 'dark', 'system', 'auto']) expect(ok({ theme })).toBe(true);
    for (const language of LANGUAGES) expect(ok({ language })).toBe(true);
    for (const timezone of TIMEZONES) expect(ok({ timezone })).toBe(true);
    for (const sessionTimeout of SESSION_TIMEOUT_OPTIONS) expect(ok({ sessionTimeout })).toBe(true);
    for (const refreshInterval of REFRESH_INTERVALS) expect(ok({ dashboardLayout: { refreshInterval } })).toBe(true);
    expect(
      ok({ timeFormat: '24h', defaultCurrency: 'CAD', autoLogout: 60, compactSidebar: true, animations: false }),
    ).toBe(true);
  });

  it('stores "auto" as "system"', () => {
    expect(parseSettingsPatch({ theme: 'auto' }).theme).toBe('system');
  });

  it('parses JSON text for the two objects', () => {
    expect(parseSettingsPatch({ notificationTypes: '{"api":false}' }).notificationTypes).toEqual({ api: false });
    expect(parseSettingsPatch({ dashboardLayout: '{"autoRefresh":false}' }).dashboardLayout).toEqual({
      autoRefresh: false,
    });
  });

  it('rejects unknown fields (named after the field), values outside the lists and wrong types', () => {
    const fields = (input: unknown) => {
      try {
        parseSettingsPatch(input);
        return null;
      } catch (error) {
        if (!isDomainError(error)) throw error;
        expect(error.status).toBe(400);
        return error.errors!.map((e) => e.field);
      }
    };
    expect(fields({ nope: 1, other: 2 })).toEqual(['nope', 'other']);
    expect(fields({ theme: 'blue' })).toEqual(['theme']);
    expect(fields({ sessionTimeout: '30' })).toEqual(['sessionTimeout']);
    expect(fields({ sessionTimeout: 45 })).toEqual(['sessionTimeout']);
    expect(fields({ language: 'it', timezone: 'Mars/Olympus' })).toEqual(['language', 'timezone']);
    expect(fields({ notificationTypes: { system: 'yes' } })).toEqual(['notificationTypes.system']);
    expect(fields({ notificationTypes: { extra: true } })).toEqual(['notificationTypes.extra']);
    expect(fields({ dashboardLayout: { cards: ['weather'] } })).toEqual(['dashboardLayout.cards.0']);
    expect(fields('theme=dark')).toEqual(['body']);
  });

  it('appearance classes for <html>', () => {
    expect(appearanceClasses(null)).toBe('');
    expect(appearanceClasses({ theme: 'light', compactSidebar: false, animations: true })).toBe('');
    expect(appearanceClasses({ theme: 'dark', compactSidebar: true, animations: false })).toBe(
      'dark compact-sidebar reduce-motion',
    );
    expect(appearanceClasses({ theme: 'system', compactSidebar: false, animations: true })).toBe('theme-system');
  });
});

describe.each(TEST_DIALECTS)('user settings service on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database?.destroy());

  const newUser = async () => {
    const user = await createTestUser(db);
    return { user, ctx: await userContext(db, user.id) };
  };

  it('first read creates the defaults; appearance defaults without a record', async () => {
    const { user, ctx } = await newUser();
    expect(await findUserSettings(db, user.id)).toBeNull();
    expect(await readAppearance(ctx)).toEqual({ theme: 'light', compactSidebar: false, animations: true });
    const settings = await getUserSettings(ctx);
    expect(settings).toMatchObject({ ...DEFAULT_SETTINGS, userId: user.id });
    expect(await findUserSettings(db, user.id)).toEqual(settings);
  });

  it('an update before any read creates the record and applies the change, merging objects', async () => {
    const { ctx } = await newUser();
    const updated = await updateUserSettings(ctx, {
      theme: 'dark',
      notificationTypes: { security: false },
      dashboardLayout: '{"refreshInterval":60}',
    });
    expect(updated.theme).toBe('dark');
    expect(updated.notificationTypes).toEqual({ ...DEFAULT_SETTINGS.notificationTypes, security: false });
    expect(updated.dashboardLayout).toEqual({ ...DEFAULT_SETTINGS.dashboardLayout, refreshInterval: 60 });
    expect(await readAppearance(ctx)).toEqual({ theme: 'dark', compactSidebar: false, animations: true });
    const audit = await db
      .selectFrom('auditLogs')
      .select(['action', 'reason'])
      .where('tableName', '=', 'user_settings')
      .where('recordId', '=', updated.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    const versions = await db
      .selectFrom('dataVersions')
      .select(['version', 'isActive'])
      .where('tableName', '=', 'user_settings')
      .where('recordId', '=', updated.id)
      .orderBy('version')
      .execute();
    expect(versions).toEqual([
      { version: 1, isActive: false },
      { version: 2, isActive: true },
    ]);
  });

  it('concurrent first reads and updates end with one record', async () => {
    const { user, ctx } = await newUser();
    const results = await Promise.all([
      getUserSettings(ctx),
      getUserSettings(ctx),
      updateUserSettings(ctx, { language: 'fr' }),
      getUserSettings(ctx),
      updateUserSettings(ctx, { timeFormat: '24h' }),
    ]);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const rows = await db
      .selectFrom('userSettings')
      .select(['language', 'timeFormat'])
      .where('userId', '=', user.id)
      .execute();
    expect(rows).toEqual([{ language: 'fr', timeFormat: '24h' }]);
  });

  it('concurrent one-flag updates of the same object all stick (the pop-over saves one toggle at a time)', async () => {
    const { user, ctx } = await newUser();
    await getUserSettings(ctx);
    const flags = Object.keys(DEFAULT_SETTINGS.notificationTypes);
    await Promise.all([
      ...flags.map((flag) => updateUserSettings(ctx, { notificationTypes: { [flag]: false } })),
      updateUserSettings(ctx, { dashboardLayout: { autoRefresh: false } }),
      updateUserSettings(ctx, { dashboardLayout: { refreshInterval: 300 } }),
    ]);
    const settings = await findUserSettings(db, user.id);
    expect(settings!.notificationTypes).toEqual(Object.fromEntries(flags.map((flag) => [flag, false])));
    expect(settings!.dashboardLayout).toMatchObject({ autoRefresh: false, refreshInterval: 300 });
  });

  it('an update that changes nothing writes no audit entry', async () => {
    const { ctx } = await newUser();
    const settings = await getUserSettings(ctx);
    await updateUserSettings(ctx, {});
    const audit = await db
      .selectFrom('auditLogs')
      .select('id')
      .where('tableName', '=', 'user_settings')
      .where('recordId', '=', settings.id)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('an invalid update changes nothing', async () => {
    const { user, ctx } = await newUser();
    const before = await getUserSettings(ctx);
    const error = await rejection(updateUserSettings(ctx, { theme: 'dark', language: 'klingon' }));
    expect(isDomainError(error) && error.status).toBe(400);
    expect(await findUserSettings(db, user.id)).toEqual(before);
  });

  it('only a signed-in user has settings', async () => {
    const error = await rejection(getUserSettings({ db, actor: systemActor('cli'), meta: {}, runtime: noEngine() }));
    expect(isDomainError(error) && error.status).toBe(403);
  });
});
