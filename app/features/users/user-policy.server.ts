// Who may manage whom (owner protections; docs/security.md): one answer for the services that enforce
// it, the /api/users calls and the User Management screen that greys out what it refuses.
import {
  canManageUser,
  effectiveFlags,
  mayGrantRole,
  ROLES,
  type ManagedUser,
  type PermissionFlag,
  type Principal,
  type Role,
  type UserManagementAction,
} from '../../platform/lib/permissions.ts';
import { MAX_ID } from '../../platform/lib/query.ts';
import { actingUser, actorCompanyScope, type AuthUser, type ServiceContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { findUserById } from './user-queries.server.ts';
import { msg } from '../../platform/i18n/messages.ts';

// The refusals the User Management screen shows are messages (docs/languages.md); /api answers them in English.
export const OWNER_PROTECTED = msg('Owners cannot be deactivated or deleted');
export const CANNOT_REMOVE_SELF = msg('You cannot deactivate or delete your own account');
export const CANNOT_CHANGE_OWN_PERMISSIONS = msg('You cannot change your own permissions');
export const CANNOT_RESET_OWN_PASSWORD = msg('Use Change Password to change your own password');
export const CANNOT_CHANGE_OWN_ROLE = msg('You cannot change your own role or company');
export const CANNOT_GRANT = msg('You cannot grant permissions you do not have');
export const OWN_PROFILE_ONLY = 'You can only edit your own profile';
const FORBIDDEN = 'Forbidden';

type Target = ManagedUser;

/**
 * Why `actor` may not do `action` to `target` (null: allowed): the one rule behind every user
 * management action (API, screen intents, the screen's row buttons). A null actor is the system
 * or the CLI: it manages everybody, but the owner protections hold for it as well. `target`
 * must carry the user's stored flags: a manager acts only on users within their own rights.
 */
export function managementRefusal(
  actor: Principal | null,
  action: UserManagementAction,
  target: Target | null,
  newRole?: Role,
): string | null {
  const removing = action === 'deactivate' || action === 'delete';
  if (target && removing && target.role === 'owner') return OWNER_PROTECTED;
  if (!actor) return null;
  const self = target !== null && target.id === actor.id;
  if (self && removing) return CANNOT_REMOVE_SELF;
  if (!canManageUser(actor, action, target, newRole)) {
    // Allowed but for the role it would give: say so, as granting a flag does.
    const onlyTheRole =
      newRole !== undefined &&
      canManageUser(actor, action, target) &&
      !mayGrantRole(actor, newRole) &&
      newRole !== 'owner' &&
      newRole !== 'admin';
    return onlyTheRole ? CANNOT_GRANT : FORBIDDEN;
  }
  // One's own password and permissions are not managed from user management: the password is
  // changed with the current one (change-password), and nobody widens their own permissions.
  if (self && action === 'permissions') return CANNOT_CHANGE_OWN_PERMISSIONS;
  if (self && action === 'temporaryPassword') return CANNOT_RESET_OWN_PASSWORD;
  return null;
}

export function assertMayManage(
  ctx: ServiceContext,
  action: UserManagementAction,
  target: Target | null,
  newRole?: Role,
): void {
  const refusal = managementRefusal(actingUser(ctx), action, target, newRole);
  if (refusal) throw forbidden(refusal);
}

export const ROW_ACTIONS = ['edit', 'permissions', 'temporaryPassword', 'deactivate', 'delete'] as const;
export type RowAbilities = Record<(typeof ROW_ACTIONS)[number], boolean>;

/** What the signed-in user may do to one listed user: the row's buttons (reactivating is an edit). */
export function rowAbilities(actor: Principal, target: Target): RowAbilities {
  return Object.fromEntries(
    ROW_ACTIONS.map((action) => [action, managementRefusal(actor, action, target) === null]),
  ) as RowAbilities;
}

/** Roles the signed-in user may give (only an owner gives owner or admin). */
export function roleChoices(actor: Principal): Role[] {
  return ROLES.filter((role) => canManageUser(actor, 'create', null, role));
}

/** The user an action is about; one outside a company-scoped actor's company is a 404, not a 403. */
export async function loadTarget(ctx: ServiceContext, id: number): Promise<AuthUser> {
  const user = id > 0 && id <= MAX_ID ? await findUserById(ctx.db, id) : undefined;
  const scope = actorCompanyScope(ctx);
  if (!user || (scope !== null && scope !== user.companyId)) throw notFound();
  return user;
}

/** A manager who is not an owner cannot give a role whose baseline exceeds their own rights. */
export function assertMayGrantRole(ctx: ServiceContext, role: Role): void {
  const actor = actingUser(ctx);
  if (!actor || actor.role === 'owner') return;
  if (!mayGrantRole(actor, role)) throw forbidden(CANNOT_GRANT);
}

/** Nor a flag they do not hold themselves (no escalation through another account). */
export function assertMayGrantFlags(ctx: ServiceContext, changes: Partial<Record<PermissionFlag, boolean>>): void {
  const actor = actingUser(ctx);
  if (!actor || actor.role === 'owner') return;
  const mine = effectiveFlags(actor);
  if (Object.entries(changes).some(([flag, on]) => on && !mine[flag as PermissionFlag])) throw forbidden(CANNOT_GRANT);
}

/**
 * PATCH /api/users/{id} edits one's own profile only (profile.server.ts does the work): anyone
 * else's id answers 403, whatever the role; administrators use PUT /api/users/{id}.
 */
export function assertOwnAccount(ctx: ServiceContext, userId: number): void {
  if (actingUser(ctx)?.id !== userId) throw forbidden(OWN_PROFILE_ONLY);
}
