// The toast after a sign-in, in the signed-in user's language (the sign-in page itself follows
// the browser's).
import type { Db } from '../../platform/context.ts';
import type { Toast } from '../../platform/lib/toast.ts';
import { findUserSettings } from '../settings/index.server.ts';
import { requestI18n } from '../shell/index.server.ts';

export async function welcomeToast(
  request: Request,
  db: Db,
  userId: number,
  recoveryCodesLeft?: number,
): Promise<Toast> {
  const { t } = requestI18n(request, null, await findUserSettings(db, userId));
  return {
    type: 'success',
    title: t('Welcome back!'),
    description:
      recoveryCodesLeft === undefined
        ? t('Login successful.')
        : t(
            '{count, plural, one {Login successful. You have # recovery code left.} other {Login successful. You have # recovery codes left.}}',
            { count: recoveryCodesLeft },
          ),
  };
}
