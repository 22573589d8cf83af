// The profile page's schemas (profile edit, password change), shared by
// the form (conform, in the browser and on the server) and the profile service.
import { z } from 'zod';
import { EMAIL_MESSAGE, EMAIL_PATTERN, MAX_PASSWORD, MIN_PASSWORD } from '../auth/index.ts';
import { hasNoNul } from '../../platform/lib/text.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const REQUIRED_MESSAGE = msg('Username and email are required');

const requiredText = z
  .string({ error: REQUIRED_MESSAGE })
  .trim()
  .min(1, { message: REQUIRED_MESSAGE, abort: true })
  .refine(hasNoNul, { message: msg('Text must not contain NUL characters'), abort: true });

/**
 * An optional text field's messages, each a literal per field: the screen shows them in the
 * reader's language (t(error)) and the /api answers the English.
 */
interface OptionalTextMessages {
  notText: string;
  tooLong: string;
  nul: string;
}

/** Optional text: empty means none (stored as null). */
const optionalText = (max: number, messages: OptionalTextMessages) =>
  z
    .string({ error: messages.notText })
    .trim()
    .max(max, messages.tooLong)
    .refine(hasNoNul, messages.nul)
    .nullish()
    .transform((v) => (v ? v : null));

export const ProfileSchema = z.object({
  username: requiredText.max(255, msg('Username must be at most 255 characters')),
  email: requiredText
    .max(255, msg('Email must be at most 255 characters'))
    .regex(EMAIL_PATTERN, EMAIL_MESSAGE)
    .transform((v) => v.toLowerCase()),
  fullName: optionalText(255, {
    notText: msg('Full name must be text'),
    tooLong: msg('Full name must be at most 255 characters'),
    nul: msg('Full name must not contain NUL characters'),
  }),
  position: optionalText(255, {
    notText: msg('Position must be text'),
    tooLong: msg('Position must be at most 255 characters'),
    nul: msg('Position must not contain NUL characters'),
  }),
  phoneNumber: optionalText(50, {
    notText: msg('Phone number must be text'),
    tooLong: msg('Phone number must be at most 50 characters'),
    nul: msg('Phone number must not contain NUL characters'),
  }).refine((v) => v === null || /^[0-9+()\-.\s]{3,50}$/.test(v), msg('Please enter a valid phone number')),
});

export const PASSWORDS_REQUIRED = msg('All password fields are required');
export const PASSWORDS_MISMATCH = msg('New passwords do not match');
/**
 * At least 8 characters, as everywhere else (docs/security.md); not a shorter minimum here. The
 * screen shows it as a message with the minimum as a placeholder.
 */
export const PASSWORD_TOO_SHORT = `New password must be at least ${MIN_PASSWORD} characters`;

const requiredPassword = z
  .string({ error: PASSWORDS_REQUIRED })
  .min(1, { message: PASSWORDS_REQUIRED, abort: true })
  .max(MAX_PASSWORD, msg('Password is too long'));

export const ProfilePasswordSchema = z
  .object({
    currentPassword: requiredPassword,
    newPassword: requiredPassword.min(MIN_PASSWORD, PASSWORD_TOO_SHORT),
    confirmPassword: requiredPassword,
  })
  .refine((v) => v.newPassword === v.confirmPassword, { message: PASSWORDS_MISMATCH, path: ['confirmPassword'] })
  .refine((v) => v.currentPassword !== v.newPassword, {
    message: msg('New password must be different from the current password'),
    path: ['newPassword'],
  });
