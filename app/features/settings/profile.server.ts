// The signed-in user's own profile: username, e-mail, full name, position,
// phone. One transaction with its audit entry; password data never enters the audit.
import { nameKey } from '../../platform/lib/names.ts';
import { ProfileSchema } from './profile-schemas.ts';
import { writeRecord } from '../../platform/audit.server.ts';
import { inTransaction, requireUser, type AuthUser, type ServiceContext } from '../../platform/context.ts';
import {
  DomainError,
  fieldErrorsFromZod,
  forbidden,
  invalid,
  mapConstraintErrors,
  type FieldError,
} from '../../platform/errors.ts';
import { findUserById } from '../users/index.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { REASONS } from '../../platform/audit-reasons.ts';

export const USERNAME_TAKEN = msg('This username is already taken');
export const EMAIL_TAKEN = msg('This email address is already in use');

/**
 * Updates the acting user's profile fields. Invalid input → 400 with field errors; a username
 * or e-mail another account uses (compared case-insensitively) → 409 with field errors.
 */
export async function updateOwnProfile(ctx: ServiceContext, input: unknown): Promise<AuthUser> {
  const userId = requireUser(ctx).id;
  // Strict here (the JSON API); the profile form's own controls are dropped by the form's parse.
  const parsed = ProfileSchema.strict().safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const values = parsed.data;

  // Another account taking the name at the same moment trips the database's unique index: the same 409.
  return mapConstraintErrors(
    () =>
      inTransaction(ctx.db, async (trx) => {
        // Compared by nameKey (case-insensitive after NFKC, app/platform/lib/names.ts), like every unique name.
        const others = await trx.selectFrom('users').select(['username', 'email']).where('id', '!=', userId).execute();
        const errors: FieldError[] = [];
        if (others.some((u) => nameKey(u.username) === nameKey(values.username)))
          errors.push({ field: 'username', message: USERNAME_TAKEN });
        if (others.some((u) => nameKey(u.email) === nameKey(values.email)))
          errors.push({ field: 'email', message: EMAIL_TAKEN });
        if (errors.length) throw new DomainError('conflict', errors.map((e) => e.message).join('. '), { errors });

        const current = await findUserById(trx, userId);
        if (!current) throw forbidden();
        const changed = (Object.keys(values) as (keyof typeof values)[]).some((key) => current[key] !== values[key]);
        if (changed)
          await writeRecord(
            { ...ctx, db: trx },
            'users',
            { action: 'update', id: userId, values },
            { reason: REASONS.profileUpdated },
          );
        return (await findUserById(trx, userId))!;
      }),
    {
      unique: (error) => {
        const { message = '', constraint = '' } = error as { message?: string; constraint?: string };
        const field = /email/i.test(`${constraint} ${message}`) ? 'email' : 'username';
        const text = field === 'email' ? EMAIL_TAKEN : USERNAME_TAKEN;
        return new DomainError('conflict', text, { errors: [{ field, message: text }] });
      },
      foreignKey: 'This user is still referenced by other records',
    },
  );
}

export interface ProfileView {
  user: AuthUser;
  companyName: string | null;
  passwordChangedAt: string | null;
}

/** The signed-in user's profile with what the account information card shows. */
export async function getOwnProfile(ctx: ServiceContext): Promise<ProfileView> {
  const userId = requireUser(ctx).id;
  const user = await findUserById(ctx.db, userId);
  if (!user) throw forbidden();
  const extra = await ctx.db
    .selectFrom('users as u')
    .leftJoin('companies as c', 'c.id', 'u.companyId')
    .select(['c.name as companyName', 'u.passwordChangedAt'])
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
  return { user, companyName: extra.companyName ?? null, passwordChangedAt: extra.passwordChangedAt ?? null };
}
