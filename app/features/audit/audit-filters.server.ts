// The choices of the Audit Trail's filters that come from the database: the users whose
// entries a reader may filter by, as a list while they are few, else by name
// (user-filter.server.ts). A reader limited to one company sees only that company's users, as
// the trail itself shows only that company's entries.
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { userChoices, userNamed, type UserChoice } from '../users/index.server.ts';

export type AuditUserChoice = UserChoice;

/** Every user the reader may filter by, by username; null when there are too many to list. */
export async function auditUserChoices(ctx: ServiceContext): Promise<AuditUserChoice[] | null> {
  requirePermission(ctx, 'auditLogs');
  return userChoices(ctx.db, actorCompanyScope(ctx));
}

/** The user the filter's text names (id, username or e-mail) among those the reader may filter by. */
export async function auditUserNamed(
  ctx: ServiceContext,
  text: string,
): Promise<(AuditUserChoice & { username: string }) | null> {
  requirePermission(ctx, 'auditLogs');
  return userNamed(ctx.db, actorCompanyScope(ctx), text);
}
