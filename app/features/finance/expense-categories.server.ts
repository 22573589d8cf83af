// What the Expense Categories screen adds to the generic resource: its company tabs and the
// count of categories mapped to a department, and the post of its inline department select.
import { z } from 'zod';
import { MAX_ID } from '../../platform/lib/query.ts';
import { expenseCategories } from '../resources.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { listVisibleCompanies } from '../../platform/companies.server.ts';
import { authorize } from '../../platform/resources/resources.server.ts';

/** The inline department select's post (intent remap): the category, and its department or none (unmapped). */
export const RemapSchema = z.object({
  id: z.number().int().positive().max(MAX_ID),
  departmentId: z.number().int().positive().max(MAX_ID).optional(),
});

/** The tab's company: the requested one if visible, else company 1 (the default), else the first visible. */
export async function categoryTabs(ctx: ServiceContext, requested: number | null) {
  authorize(ctx, expenseCategories, 'read');
  const companies = await listVisibleCompanies(ctx);
  const pick = (id: number | null) => (id === null ? undefined : companies.find((c) => c.id === id));
  const current = pick(requested) ?? pick(1) ?? companies[0] ?? null;
  return { companies, current };
}

export async function categoryCounts(
  ctx: ServiceContext,
  companyId: number,
): Promise<{ total: number; mapped: number }> {
  const row = await ctx.db
    .selectFrom('expenseCategories')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('departmentId').as('mapped')])
    .where('companyId', '=', companyId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), mapped: Number(row.mapped) };
}
