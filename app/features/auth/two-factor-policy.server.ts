// The installation's rule for second factors (System Settings, owner only): whether owners and
// admins must use two-factor. Who lacks it is sent to set it up before anything else opens
// (app/platform/session/session.server.ts).
import { z } from 'zod';
import { recordAudit } from '../../platform/audit.server.ts';
import { inTransaction, requireUser, type Db, type ServiceContext } from '../../platform/context.ts';
import { fieldErrorsFromZod, forbidden, invalid } from '../../platform/errors.ts';
import { SYSTEM_SETTINGS_ID } from '../../platform/session/sessions.server.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const TwoFactorPolicySchema = z.object({
  requireForAdmins: z.boolean({ error: 'requireForAdmins must be true or false' }).optional().default(false),
});

export interface TwoFactorPolicy {
  requireForAdmins: boolean;
  updatedAt: string | null;
}

export async function twoFactorPolicy(db: Db): Promise<TwoFactorPolicy> {
  const row = await db
    .selectFrom('systemSettings')
    .select(['requireTwoFactorForAdmins', 'updatedAt'])
    .where('id', '=', SYSTEM_SETTINGS_ID)
    .executeTakeFirst();
  return { requireForAdmins: !!row?.requireTwoFactorForAdmins, updatedAt: row?.updatedAt ?? null };
}

/** Sets the rule (the owner only), audited. */
export async function setTwoFactorPolicy(ctx: ServiceContext, input: unknown): Promise<TwoFactorPolicy> {
  const user = requireUser(ctx);
  if (user.role !== 'owner') throw forbidden(msg('Only the owner can change this setting'));
  const parsed = TwoFactorPolicySchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const { requireForAdmins } = parsed.data;
  return inTransaction(ctx.db, async (trx) => {
    const before = await twoFactorPolicy(trx);
    const now = new Date().toISOString();
    // The row is made by the migration; an upsert keeps a database restored without it working.
    await trx
      .insertInto('systemSettings')
      .values({
        id: SYSTEM_SETTINGS_ID,
        requireTwoFactorForAdmins: requireForAdmins,
        updatedAt: now,
        updatedBy: user.id,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ requireTwoFactorForAdmins: requireForAdmins, updatedAt: now, updatedBy: user.id }),
      )
      .execute();
    if (before.requireForAdmins !== requireForAdmins)
      await recordAudit(
        { ...ctx, db: trx },
        {
          tableName: 'system_settings',
          recordId: SYSTEM_SETTINGS_ID,
          action: 'update',
          changes: { requireTwoFactorForAdmins: { old: before.requireForAdmins, new: requireForAdmins } },
          reason: requireForAdmins
            ? 'Two-factor required for owners and admins'
            : 'Two-factor no longer required for owners and admins',
        },
      );
    return { requireForAdmins, updatedAt: now };
  });
}
