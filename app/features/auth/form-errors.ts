// The auth forms' errors in the reader's language (docs/languages.md): the schemas' and the
// services' fixed English texts are messages; any other text is shown as it came. Isomorphic.
import type { Translate } from '../../platform/i18n/messages.ts';
import { MIN_PASSWORD, NEW_PASSWORD_TOO_SHORT } from './schemas.ts';

export function errorText(t: Translate, error: string): string {
  if (error === NEW_PASSWORD_TOO_SHORT)
    return t('New password must be at least {min} characters', { min: MIN_PASSWORD });
  return t(error);
}

/** A field's or a form's errors, each translated. */
export function errorTexts(t: Translate, errors: string[] | undefined): string[] | undefined {
  return errors?.map((error) => errorText(t, error));
}
