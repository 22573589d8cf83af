// What the sign-in calls of /api answer, as zod schemas: the one description of these answers,
// built on User Management's description of a user (a password change answers as
// /api/users/{id}/change-password does). The OpenAPI document describes the answers with them
// (app/features/api-docs), and answers.test.ts checks them against what the routes build, so the
// code and the document cannot disagree.
import { z } from 'zod';
import { PERMISSION_FLAGS, type PermissionFlag } from '../../platform/lib/permissions.ts';
import { PUBLIC_USER_COLUMNS } from '../../platform/session/sessions.server.ts';
import { UserAnswer } from '../users/index.server.ts';

const sessionColumns = Object.fromEntries(PUBLIC_USER_COLUMNS.map((column) => [column, true])) as Record<
  (typeof PUBLIC_USER_COLUMNS)[number],
  true
>;

const effectiveFlags = z
  .strictObject(
    Object.fromEntries(PERMISSION_FLAGS.map((flag) => [flag, z.boolean()])) as Record<PermissionFlag, z.ZodBoolean>,
  )
  .describe('The permissions in effect: the stored flags and what the role grants anyway');

/** GET /api/auth/me and /api/auth/user: the signed-in user as the session reads them. */
export const SignedInUserAnswer = UserAnswer.pick(sessionColumns).extend({
  mustChangePassword: z
    .boolean()
    .describe('A temporary password, or a change required: every call outside /api/auth is a 403 until it is changed'),
  permissions: effectiveFlags,
});
export type SignedInUser = z.output<typeof SignedInUserAnswer>;

/** POST /api/auth/login. */
export const LoginAnswer = z.strictObject({ success: z.literal(true), user: SignedInUserAnswer });
export type LoginResult = z.output<typeof LoginAnswer>;

/** POST /api/auth/login for a user with two-factor: the password was right, no session yet. */
export const TwoFactorNeededAnswer = z.strictObject({
  success: z.literal(false),
  twoFactorRequired: z.literal(true).describe('Send a code to POST /api/auth/two-factor to finish signing in'),
  challenge: z
    .string()
    .describe(
      'The sign-in waiting for its second factor; a browser also gets it as a cookie. Ends after 5 minutes or 5 wrong codes.',
    ),
  expiresAt: z.string().describe('When the challenge ends (ISO 8601)'),
  message: z.string(),
});
export type TwoFactorNeeded = z.output<typeof TwoFactorNeededAnswer>;

/** POST /api/auth/login: signed in, or the second factor is needed. */
export const LoginStepAnswer = z.union([LoginAnswer, TwoFactorNeededAnswer]);

/** POST /api/auth/two-factor: signed in, and how many recovery codes are left. */
export const TwoFactorSignedInAnswer = LoginAnswer.extend({
  recoveryCodesLeft: z
    .number()
    .int()
    .describe('Unused recovery codes left (fewer than 3: make new ones on /two-factor)'),
});

/** POST /api/auth/logout. */
export const LogoutAnswer = z.strictObject({ success: z.literal(true) });
export type LogoutResult = z.output<typeof LogoutAnswer>;

const editorFlags = {
  canAccessFinancialData: true,
  canAccessSubscriberData: true,
  canAccessApiIntegrations: false,
  canAccessAnalytics: false,
  canAccessAuditLogs: false,
  canAccessBackups: false,
  canCreate: true,
  canEdit: true,
  canDelete: false,
  canManageUsers: false,
};

/** The documentation's example of a signed-in user: an editor of one company. */
export const SIGNED_IN_USER_EXAMPLE = {
  id: 2,
  username: 'jane',
  email: 'jane@example.com',
  role: 'editor',
  companyId: 1,
  fullName: 'Jane Doe',
  position: 'Accountant',
  phoneNumber: null,
  isActive: true,
  isTemporaryPassword: false,
  passwordChangeRequired: false,
  lastLoginAt: '2026-01-05T09:12:00.000Z',
  createdAt: '2025-11-02T10:00:00.000Z',
  ...editorFlags,
  mustChangePassword: false,
  permissions: editorFlags,
} satisfies SignedInUser;
