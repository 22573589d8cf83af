// Form schemas of the User Management screen (isomorphic: conform validates with them in the
// browser, the action validates the same posts on the server before calling the services,
// which check everything again). Messages are the specification's (spec 3 §5).
import { z } from 'zod';
import { PERMISSION_FLAGS, ROLES, type PermissionFlag } from '../../lib/permissions.ts';
import { AUDITED_TABLES } from '../../resources/index.ts';

export const MIN_USER_PASSWORD = 8;

/** '' or 'all' means every company (null); digits are a company id. */
const companyField = z
  .string()
  .trim()
  .regex(/^(all|\d{1,9})$/, 'Select a company or All Companies')
  .optional()
  .transform((v) => (v === undefined || v === 'all' ? null : Number(v)));

const username = z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(255, 'Username must be at most 255 characters');
const email = z
  .string({ error: 'Must be a valid email address' })
  .trim()
  .max(255, 'Email must be at most 255 characters')
  .pipe(z.email('Must be a valid email address'));
const role = z.enum(ROLES, { error: 'Select a role' });

export const CreateUserFormSchema = z.object({
  username,
  email,
  password: z.string({ error: `Password must be at least ${MIN_USER_PASSWORD} characters` }).min(MIN_USER_PASSWORD, `Password must be at least ${MIN_USER_PASSWORD} characters`).max(256, 'Password is too long'),
  role,
  companyId: companyField,
  /** Checked: the user must choose a new password at first sign-in. */
  isTemporaryPassword: z.boolean().optional().transform((v) => v === true),
});

export const EditUserFormSchema = z.object({ username, email, role, companyId: companyField });

export const PERMISSION_GROUPS: { title: string; flags: { flag: PermissionFlag; label: string }[] }[] = [
  {
    title: 'Data Access',
    flags: [
      { flag: 'canAccessFinancialData', label: 'Financial Data' },
      { flag: 'canAccessSubscriberData', label: 'Subscriber Data' },
      { flag: 'canAccessApiIntegrations', label: 'API Integrations' },
      { flag: 'canAccessAnalytics', label: 'Analytics' },
      { flag: 'canAccessAuditLogs', label: 'Audit Logs' },
      { flag: 'canAccessBackups', label: 'Backups' },
    ],
  },
  {
    title: 'Actions',
    flags: [
      { flag: 'canCreate', label: 'Create' },
      { flag: 'canEdit', label: 'Edit' },
      { flag: 'canDelete', label: 'Delete' },
      { flag: 'canManageUsers', label: 'Manage Users' },
    ],
  },
];

/** The permission form: a checked box posts 'on'; a box left out of the post is off. */
export function permissionsFromForm(form: FormData, only: readonly PermissionFlag[] = PERMISSION_FLAGS): Partial<Record<PermissionFlag, boolean>> {
  return Object.fromEntries(only.map((flag) => [flag, form.get(flag) === 'on' || form.get(flag) === 'true'])) as Partial<Record<PermissionFlag, boolean>>;
}

export const ROLE_BADGE: Record<(typeof ROLES)[number], string> = {
  owner: 'bg-red-100 text-red-800',
  admin: 'bg-orange-100 text-orange-800',
  editor: 'bg-blue-100 text-blue-800',
  viewer: 'bg-gray-100 text-gray-800',
};

export const HISTORY_ACTION_CHOICES = ['login', 'create', 'update', 'delete'] as const;
/** Every audited table (users and each declared resource), from the resource registry. */
export const HISTORY_TABLE_CHOICES = AUDITED_TABLES;

export const USER_TABS = [
  { key: 'users', label: 'Users' },
  { key: 'statistics', label: 'Statistics' },
  { key: 'analytics', label: 'Activity Analytics' },
  { key: 'history', label: 'Activity History' },
] as const;
export type UserTab = (typeof USER_TABS)[number]['key'];

export function parseTab(value: string | null): UserTab {
  return USER_TABS.some((t) => t.key === value) ? (value as UserTab) : 'users';
}

export const USER_MESSAGES = {
  created: 'User created successfully',
  updated: 'User updated successfully',
  permissions: 'User permissions updated successfully',
  deactivated: 'User deactivated successfully',
  reactivated: 'User reactivated successfully',
  deleted: 'User deleted successfully',
  createFailed: 'Failed to create user',
  updateFailed: 'Failed to update user',
  permissionsFailed: 'Failed to update permissions',
  deactivateFailed: 'Failed to deactivate user',
  reactivateFailed: 'Failed to reactivate user',
  temporaryFailed: 'Failed to create temporary password',
  deleteFailed: 'Failed to delete user',
  temporaryTitle: 'Temporary Password Created',
} as const;

export function confirmDeleteUserMessage(username: string): string {
  return `Are you sure you want to delete user ${username}? This action cannot be undone.`;
}
