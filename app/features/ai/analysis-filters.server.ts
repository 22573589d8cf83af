// The choices of AI Insights' filter form: the shared departments, and the expense categories of
// the chosen company (none until a company is chosen).
import type { ServiceContext } from '../../platform/context.ts';

export interface FilterChoice {
  id: number;
  name: string;
}

export async function analysisFilterChoices(
  ctx: ServiceContext,
  companyId: number | null,
): Promise<{ departments: FilterChoice[]; categories: FilterChoice[] }> {
  const [departments, categories] = await Promise.all([
    ctx.db.selectFrom('departments').select(['id', 'name']).orderBy('name').execute(),
    companyId
      ? ctx.db
          .selectFrom('expenseCategories')
          .select(['id', 'name'])
          .where('companyId', '=', companyId)
          .orderBy('name')
          .execute()
      : Promise.resolve([]),
  ]);
  return { departments, categories };
}
