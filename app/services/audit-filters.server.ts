// The choices of the Audit Trail's filters that come from the database: the users whose
// entries a reader may filter by (spec 3 §2.2). A reader limited to one company sees only
// that company's users, as the trail itself shows only that company's entries.
import type { ServiceContext } from './context.ts';
import { authorizeAuditRead } from './audit-trail.server.ts';

export interface AuditUserChoice {
  value: string;
  label: string;
}

/** Every user (active or not: their entries stay in the trail) the reader may filter by, by username. */
export async function auditUserChoices(ctx: ServiceContext): Promise<AuditUserChoice[]> {
  const scope = authorizeAuditRead(ctx);
  let q = ctx.db.selectFrom('users').select(['id', 'username', 'fullName']);
  if (scope !== null) q = q.where('companyId', '=', scope);
  const rows = await q.orderBy('username').orderBy('id').limit(1000).execute();
  return rows.map((u) => ({ value: String(u.id), label: u.fullName ? `${u.fullName} (${u.username})` : u.username }));
}
