// One settings record per user: created with the stored defaults on first read,
// updated one field or many at a time, each write audited with writeRecord (docs/writes.md).
import type { z } from 'zod';
import type { AppearanceSettings } from './user-settings.ts';
import {
  DEFAULT_SETTINGS,
  settingsFromRow,
  type Theme,
  type UserSettings,
} from '../../platform/session/user-settings-row.ts';
import { UserSettingsPatchSchema } from './user-settings-schema.ts';
import { runCompiled } from '../../../db/compiled-cache.ts';
import { dialectOf, toJson } from '../../../db/dialect.ts';
import { writeRecord } from '../../platform/audit.server.ts';
import { inTransaction, requireUser, type Db, type ServiceContext } from '../../platform/context.ts';
import { invalid, type FieldError } from '../../platform/errors.ts';
import { REASONS } from '../../platform/audit-reasons.ts';

function actorId(ctx: ServiceContext): number {
  return requireUser(ctx).id;
}

/** The settings row of a user without creating it (null when there is none yet). */
export async function findUserSettings(db: Db, userId: number): Promise<UserSettings | null> {
  // Every page's shell asks this: compiled once (db/compiled-cache.ts).
  const [row] = await runCompiled(db, 'userSettings', [userId], ([id]) =>
    db
      .selectFrom('userSettings')
      .selectAll()
      .where('userId', '=', id as number),
  );
  return row ? settingsFromRow(row) : null;
}

/** The theme, compact sidebar and animations of a settings row (defaults when there is none). */
export function appearanceOf(settings: UserSettings | null): AppearanceSettings {
  return {
    theme: (settings?.theme ?? DEFAULT_SETTINGS.theme) as Theme,
    compactSidebar: settings?.compactSidebar ?? false,
    animations: settings?.animations ?? true,
  };
}

/** The signed-in user's theme, compact sidebar and animations for the document (defaults when nothing is stored). */
export async function readAppearance(ctx: ServiceContext): Promise<AppearanceSettings> {
  return appearanceOf(await findUserSettings(ctx.db, actorId(ctx)));
}

async function ensureRow(ctx: ServiceContext, userId: number): Promise<UserSettings> {
  const existing = await findUserSettings(ctx.db, userId);
  if (existing) return existing;
  try {
    // A concurrent first read may win the unique user_id: then read the row it created.
    const row = await writeRecord(
      ctx,
      'userSettings',
      {
        action: 'create',
        values: {
          userId,
          notificationTypes: toJson(DEFAULT_SETTINGS.notificationTypes),
          dashboardLayout: toJson(DEFAULT_SETTINGS.dashboardLayout),
        },
      },
      { reason: REASONS.defaultSettings },
    );
    return settingsFromRow(row);
  } catch (error) {
    if (ctx.db.isTransaction) throw error;
    const again = await findUserSettings(ctx.db, userId);
    if (again) return again;
    throw error;
  }
}

/** GET /api/user-settings: the signed-in user's settings, created with the defaults on first read. */
export async function getUserSettings(ctx: ServiceContext): Promise<UserSettings> {
  return ensureRow(ctx, actorId(ctx));
}

/** Zod issues → field errors; unknown keys become one error per key, named after the key. */
function settingsFieldErrors(issues: z.core.$ZodIssue[]): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const prefix = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors.push({ field: prefix ? `${prefix}.${key}` : key, message: issue.message });
    } else {
      errors.push({ field: prefix || 'body', message: issue.message });
    }
  }
  return errors;
}

export function parseSettingsPatch(input: unknown) {
  const parsed = UserSettingsPatchSchema.safeParse(input ?? {});
  if (!parsed.success) throw invalid(settingsFieldErrors(parsed.error.issues));
  return parsed.data;
}

/**
 * PUT /api/user-settings: a partial update of the signed-in user's settings. Invalid input
 * (unknown fields, values outside the lists) is a 400 and changes nothing.
 */
export async function updateUserSettings(ctx: ServiceContext, input: unknown): Promise<UserSettings> {
  const userId = actorId(ctx);
  const patch = parseSettingsPatch(input);
  // Created first, on its own (a concurrent first read may win the insert; ensureRow re-reads).
  await ensureRow(ctx, userId);
  return inTransaction(ctx.db, async (trx) => {
    const txCtx = { ...ctx, db: trx };
    // The objects are merged read-modify-write, so two quick toggles must not both read the old
    // object: PostgreSQL locks the row here; SQLite transactions already begin immediate.
    if (dialectOf(trx) === 'postgres') {
      await trx.selectFrom('userSettings').select('id').where('userId', '=', userId).forUpdate().execute();
    }
    const current = await ensureRow(txCtx, userId);
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (key === 'notificationTypes') values[key] = toJson({ ...current.notificationTypes, ...(value as object) });
      else if (key === 'dashboardLayout') values[key] = toJson({ ...current.dashboardLayout, ...(value as object) });
      else values[key] = value;
    }
    if (Object.keys(values).length === 0) return current;
    const row = await writeRecord(
      txCtx,
      'userSettings',
      { action: 'update', id: current.id, values },
      { reason: REASONS.settingsUpdated },
    );
    return settingsFromRow(row);
  });
}
