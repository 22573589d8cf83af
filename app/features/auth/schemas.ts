// Sign-in and password schemas, shared by the forms (conform), the JSON API and the CLI.
import { z } from 'zod';
import { msg } from '../../platform/i18n/messages.ts';

/** A loose e-mail shape (something@host.tld) for sign-in and the profile, with its message. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MESSAGE = msg('Please enter a valid email address');
/** Passwords have at least 8 characters everywhere (docs/security.md). */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 256;
const TOO_LONG = msg('Password is too long');

/**
 * A required string whose "missing" and "empty" messages are the same text. An empty value
 * stops there, so later checks (the e-mail pattern) do not add a second message.
 */
const required = (message: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? message : 'Must be text') })
    .min(1, { message, abort: true });

export const LoginSchema = z.object({
  email: required(msg('Email is required')).trim().regex(EMAIL_PATTERN, EMAIL_MESSAGE).max(255),
  password: required(msg('Password is required')).max(MAX_PASSWORD, TOO_LONG),
  rememberMe: z.boolean().optional().default(false),
  redirectTo: z.string().optional(),
});

/** A screen shows it translated, with the minimum as a placeholder. */
export const NEW_PASSWORD_TOO_SHORT = `New password must be at least ${MIN_PASSWORD} characters`;

const newPassword = z
  .string({ error: NEW_PASSWORD_TOO_SHORT })
  .min(MIN_PASSWORD, NEW_PASSWORD_TOO_SHORT)
  .max(MAX_PASSWORD, TOO_LONG);

const differs = (value: { currentPassword?: string; newPassword: string }) =>
  !value.currentPassword || value.currentPassword !== value.newPassword;
const DIFFERS_MESSAGE = msg('New password must be different from the current password');

/** The JSON API body: { currentPassword, newPassword }. */
export const ChangePasswordSchema = z
  .object({
    currentPassword: required(msg('Current password is required')).max(MAX_PASSWORD, TOO_LONG),
    newPassword,
  })
  .refine(differs, { message: DIFFERS_MESSAGE, path: ['newPassword'] });

/** The change-password page adds a confirmation field. */
export const ChangePasswordFormSchema = z
  .object({
    currentPassword: required(msg('Current password is required')).max(MAX_PASSWORD, TOO_LONG),
    newPassword,
    confirmPassword: required(msg('Please confirm your new password')),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: msg("New passwords don't match"),
    path: ['confirmPassword'],
  })
  .refine(differs, { message: DIFFERS_MESSAGE, path: ['newPassword'] });

/** An administrator setting another user's password needs no current password. */
export const AdminSetPasswordSchema = z.object({ currentPassword: z.string().optional(), newPassword });

/** POST /api/users/{id}/change-password: one's own (with the current password), or a manager's for another user. */
export const PasswordChangeBody = z.union([ChangePasswordSchema, AdminSetPasswordSchema]);

const CODE_MISSING = msg('Enter the code from your authenticator app or a recovery code');

/** An authenticator code (6 digits) or a recovery code, as typed: blank once trimmed is missing, not a wrong guess. */
const secondFactorCode = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? CODE_MISSING : 'Must be text') })
  .trim()
  .min(1, { message: CODE_MISSING, abort: true })
  .max(32, msg('Code is too long'));

/** Confirming the setup: a current code of the new secret. */
export const TwoFactorConfirmSchema = z.object({ code: secondFactorCode });

/** Turning two-factor off or renewing the recovery codes: the password and a current code. */
export const TwoFactorCodeSchema = z.object({
  currentPassword: required(msg('Current password is required')).max(MAX_PASSWORD, TOO_LONG),
  code: secondFactorCode,
});

/** The second step of a sign-in: the code, and (JSON API) the challenge the first step answered. */
export const TwoFactorSignInSchema = z.object({
  challenge: z.string().max(200).optional(),
  code: secondFactorCode,
  redirectTo: z.string().optional(),
});
