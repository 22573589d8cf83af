// The auth screens' refusals in the reader's language (docs/languages.md). The services throw
// English (the /api answers it); a screen's route translates what its page shows.
import { DomainError, isDomainError } from '../../platform/errors.ts';
import type { Translate } from '../../platform/i18n/messages.ts';
import { TOO_MANY_ATTEMPTS } from '../../platform/http/throttle.server.ts';
import { errorText } from './form-errors.ts';
import { CHALLENGE_ENDED } from './two-factor-challenges.server.ts';

const LOGIN_LOCKED = 'Too many failed login attempts.';

/** A domain error's message in the reader's language. */
export function translatedMessage(error: DomainError, t: Translate): string {
  if (error.kind === 'rateLimited' && error.message.startsWith(LOGIN_LOCKED) && error.retryAfter)
    return t(
      '{minutes, plural, one {Too many failed login attempts. Please try again in # minute.} other {Too many failed login attempts. Please try again in # minutes.}}',
      { minutes: Math.ceil(error.retryAfter / 60) },
    );
  if (error.message === `Too many wrong codes. ${CHALLENGE_ENDED}`)
    return t('Too many wrong codes. Your sign-in has expired. Please sign in again.');
  if (error.message === TOO_MANY_ATTEMPTS) return t('Too many attempts. Please try again later.');
  return errorText(t, error.message);
}

/** A domain error with its message and field errors translated; anything else as it was. */
export function translatedFailure(error: unknown, t: Translate): unknown {
  if (!isDomainError(error)) return error;
  return new DomainError(error.kind, translatedMessage(error, t), {
    errors: error.errors?.map((e) => ({ ...e, message: errorText(t, e.message) })),
    retryAfter: error.retryAfter,
  });
}

/** Runs a screen's intent, its refusals translated. */
export async function translatingFailures<T>(t: Translate, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw translatedFailure(error, t);
  }
}
