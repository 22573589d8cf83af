// Who may do what. Effective permissions = role baseline ∪ the user's ten flags (docs/security.md).
// Isomorphic: the server enforces with it, the sidebar hides what a user may not open.

import { ROLES, type Role } from '../../../db/types.ts';
import { msg } from '../i18n/messages.ts';

export { ROLES, type Role };

export const PERMISSION_FLAGS = [
  'canAccessFinancialData',
  'canAccessSubscriberData',
  'canAccessApiIntegrations',
  'canAccessAnalytics',
  'canAccessAuditLogs',
  'canAccessBackups',
  'canCreate',
  'canEdit',
  'canDelete',
  'canManageUsers',
] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];
export type PermissionFlags = Record<PermissionFlag, boolean>;

export const ROLE_BASELINE: Record<Role, readonly PermissionFlag[]> = {
  owner: PERMISSION_FLAGS,
  admin: PERMISSION_FLAGS,
  editor: ['canAccessFinancialData', 'canAccessSubscriberData', 'canCreate', 'canEdit'],
  viewer: ['canAccessFinancialData', 'canAccessSubscriberData'],
};

export const ROLE_LABELS: Record<Role, string> = {
  owner: msg('System Owner'),
  admin: msg('Admin'),
  editor: msg('Editor'),
  viewer: msg('Viewer'),
};

/** The parts of a user that decide permissions. */
export type Principal = { id: number; role: Role; companyId: number | null } & PermissionFlags;

/** Each role's baseline as a set, made once (effectiveFlags runs for every permission check). */
const BASELINE_SETS: Record<Role, ReadonlySet<PermissionFlag>> = {
  owner: new Set(ROLE_BASELINE.owner),
  admin: new Set(ROLE_BASELINE.admin),
  editor: new Set(ROLE_BASELINE.editor),
  viewer: new Set(ROLE_BASELINE.viewer),
};

export function effectiveFlags(user: Principal): PermissionFlags {
  const baseline = BASELINE_SETS[user.role];
  const flags = {} as PermissionFlags;
  for (const flag of PERMISSION_FLAGS) flags[flag] = baseline.has(flag) || user[flag] === true;
  return flags;
}

export function isAdministrator(user: Pick<Principal, 'role'>): boolean {
  return user.role === 'owner' || user.role === 'admin';
}

/**
 * Areas of the product and the flag that opens them.
 * - flag areas: reading needs the flag; writes also need canCreate/canEdit/canDelete when
 *   `writesNeedActionFlag` (finance and subscriber data, integrations).
 * - `reference`: companies and departments, readable by every signed-in user, written by
 *   owners and admins who are not limited to one company. `admin`: owner/admin only.
 *   `installation`: what spans every company (system monitoring, system settings, every
 *   backup): owners and admins not limited to one company. `personal`: every signed-in user.
 */
export const AREAS = {
  financial: { flag: 'canAccessFinancialData', writesNeedActionFlag: true },
  subscriber: { flag: 'canAccessSubscriberData', writesNeedActionFlag: true },
  integrations: { flag: 'canAccessApiIntegrations', writesNeedActionFlag: true },
  analytics: { flag: 'canAccessAnalytics', writesNeedActionFlag: false },
  auditLogs: { flag: 'canAccessAuditLogs', writesNeedActionFlag: false },
  backups: { flag: 'canAccessBackups', writesNeedActionFlag: false },
  users: { flag: 'canManageUsers', writesNeedActionFlag: false },
  reference: { flag: null, writesNeedActionFlag: false },
  admin: { flag: null, writesNeedActionFlag: false },
  installation: { flag: null, writesNeedActionFlag: false },
  personal: { flag: null, writesNeedActionFlag: false },
} as const satisfies Record<string, { flag: PermissionFlag | null; writesNeedActionFlag: boolean }>;
export type Area = keyof typeof AREAS;

export type Action = 'read' | 'create' | 'edit' | 'delete';
const ACTION_FLAG: Record<Exclude<Action, 'read'>, PermissionFlag> = {
  create: 'canCreate',
  edit: 'canEdit',
  delete: 'canDelete',
};

export function can(user: Principal, area: Area, action: Action = 'read'): boolean {
  const flags = effectiveFlags(user);
  if (area === 'personal') return true;
  if (area === 'admin') return isAdministrator(user);
  if (area === 'installation') return isAdministrator(user) && companyScope(user) === null;
  // Group-wide reference data: a company-scoped user (even an admin) never writes it.
  if (area === 'reference') return action === 'read' || (isAdministrator(user) && companyScope(user) === null);
  const rule = AREAS[area];
  if (!flags[rule.flag]) return false;
  // A backup holds every company: only a user not limited to one company makes, restores or
  // deletes one (a scoped holder of the flag lists them and exports their own company's rows).
  if (area === 'backups' && action !== 'read') return companyScope(user) === null;
  if (action === 'read' || !rule.writesNeedActionFlag) return true;
  return flags[ACTION_FLAG[action]];
}

/**
 * `can` for what the whole group shares (departments, integration sources and endpoints): a
 * user limited to one company only reads it, whatever their permissions.
 */
export function canGroupWide(user: Principal, area: Area, action: Action = 'read'): boolean {
  return can(user, area, action) && (action === 'read' || companyScope(user) === null);
}

/**
 * Whether the user is refused the area only because they are limited to one company: an owner
 * or admin of one company and what spans the whole installation (system monitoring and its
 * errors, system settings, every company's backups). Such a refusal is a 404, as other
 * companies' rows are: for them it does not exist.
 */
export function outOfScope(user: Principal, area: Area): boolean {
  return area === 'installation' && isAdministrator(user) && companyScope(user) !== null;
}

/** null = every company; otherwise the one company the user is limited to. */
export function companyScope(user: Pick<Principal, 'companyId'>): number | null {
  return user.companyId ?? null;
}

export function canSeeCompany(user: Pick<Principal, 'companyId'>, companyId: number | null): boolean {
  const scope = companyScope(user);
  return scope === null || scope === companyId;
}

export type UserManagementAction =
  'create' | 'edit' | 'permissions' | 'deactivate' | 'delete' | 'temporaryPassword' | 'changePassword';

/** The user a management action is about: who they are and the flags they hold as stored. */
export type ManagedUser = Pick<Principal, 'id' | 'role' | 'companyId'> & Partial<PermissionFlags>;

/** Whether every one of `flags` is among the actor's effective permissions. */
function holdsAll(actor: Principal, flags: readonly PermissionFlag[]): boolean {
  const mine = effectiveFlags(actor);
  return flags.every((flag) => mine[flag]);
}

/** Whether the actor holds every permission a user with this role gets from the role alone. */
export function mayGrantRole(actor: Principal, role: Role): boolean {
  return holdsAll(actor, ROLE_BASELINE[role]);
}

/**
 * Whether the target's role and effective flags are all within the actor's own: a
 * manager may only act on users no more powerful than themselves, the same rule as granting.
 */
export function withinActorPermissions(actor: Principal, target: ManagedUser): boolean {
  const baseline = new Set(ROLE_BASELINE[target.role]);
  return holdsAll(
    actor,
    PERMISSION_FLAGS.filter((flag) => baseline.has(flag) || target[flag] === true),
  );
}

/**
 * Owner protections: only an owner may create, edit or delete owners and admins;
 * owners cannot be deactivated or deleted; nobody deletes or deactivates themselves; a
 * company-scoped manager only manages users of their own company; and a manager only acts on
 * users whose role and flags are all within their own, and only gives a role within their own.
 * `target` is the user as stored (with their flags); `newRole` the role a create/edit would give.
 */
export function canManageUser(
  actor: Principal,
  action: UserManagementAction,
  target: ManagedUser | null,
  newRole?: Role,
): boolean {
  if (!effectiveFlags(actor).canManageUsers) return false;
  const privileged = (role: Role | undefined) => role === 'owner' || role === 'admin';
  if ((privileged(target?.role) || privileged(newRole)) && actor.role !== 'owner') return false;
  if (newRole && !mayGrantRole(actor, newRole)) return false;
  if (target) {
    if (!canSeeCompany(actor, target.companyId)) return false;
    if (!withinActorPermissions(actor, target)) return false;
    if ((action === 'deactivate' || action === 'delete') && (target.role === 'owner' || target.id === actor.id)) {
      return false;
    }
  }
  return true;
}
