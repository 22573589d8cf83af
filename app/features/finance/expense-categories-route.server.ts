// The /expense-categories route's server half: one tab per company (?company=ID, default
// company 1), the counts of categories and of those mapped to a department, and inline
// department reassignment.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { resourceAction, resourceLoader } from '../../platform/resources/resource-screen.server.ts';
import { loadScreen, succeed } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import { expenseCategories } from './expense-categories.ts';
import { categoryCounts, categoryTabs, RemapSchema } from './expense-categories.server.ts';
import { updateRecord } from '../../platform/resources/resources.server.ts';
import { allow, resourceScreenAccess } from '../../platform/screen/route-access.ts';
import { requestI18n } from '../shell/index.server.ts';

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const { companies, current } = await categoryTabs(ctx, positiveIdParam(url.searchParams.get('company')));
    const companyId = current?.id ?? -1;
    const [list, counts] = await Promise.all([
      resourceLoader(expenseCategories, args, {
        listQuery: () => ({ companyId }),
        rowFields: ['departmentId', 'departmentName'],
        choiceLists: ['departments'],
      }),
      current ? categoryCounts(ctx, current.id) : { total: 0, mapped: 0 },
    ]);
    return json({ ...list, tabs: companies, currentCompanyId: current?.id ?? null, counts });
  });

const REMAP_FAILED = 'Failed to update department mapping';

const intents = {
  // The inline department select: an empty choice unmaps the category.
  remap: intent({
    allow: allow.to(expenseCategories.area, 'edit'),
    schema: RemapSchema,
    invalid: REMAP_FAILED,
    failed: REMAP_FAILED,
    run: async ({ id, departmentId }, screen) => {
      await updateRecord(screen.ctx, expenseCategories, id, { departmentId: departmentId ?? null });
      return succeed(screen, 'Department mapping updated successfully');
    },
  }),
};

export const access = resourceScreenAccess(expenseCategories, intents);

export const action = (args: ActionFunctionArgs) =>
  resourceAction(expenseCategories, args, { intents, i18n: requestI18n });
