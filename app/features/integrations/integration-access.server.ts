// Who may see and manage API integrations: the 'integrations' permission to read; to change
// anything, also group-wide scope, since a source or endpoint serves every company's books.
import { can, companyScope } from '../../platform/lib/permissions.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { forbidden } from '../../platform/errors.ts';

export function authorizeIntegrationRead(ctx: ServiceContext): void {
  if (ctx.actor.kind === 'user' && !can(ctx.actor.user, 'integrations')) throw forbidden();
}

export function authorizeIntegrationWrite(ctx: ServiceContext, action: 'create' | 'edit' = 'create'): void {
  if (ctx.actor.kind !== 'user') return;
  if (!can(ctx.actor.user, 'integrations', action) || companyScope(ctx.actor.user) !== null) throw forbidden();
}
