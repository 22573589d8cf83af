// Reference fields several finance declarations share: the department/category pair of budgets
// and expenses, and the company, source and amount of revenue (the company picker itself is
// beside the companies' declaration).
import type { FieldOf } from '../../platform/resources/define.ts';
import { REVENUE_SOURCES } from '../../platform/resources/shared.ts';
import { companyField } from './companies.ts';
import { departments } from './departments.ts';
import { expenseCategories } from './expense-categories.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const financeReferences = [
  {
    name: 'departmentId',
    label: msg('Department'),
    kind: 'reference',
    reference: () => departments,
    required: true,
    requiredMessage: msg('Department is required'),
  },
  {
    name: 'categoryId',
    label: msg('Category'),
    kind: 'reference',
    reference: () => expenseCategories,
    required: true,
    requiredMessage: msg('Category is required'),
  },
] as const satisfies readonly FieldOf<'budgets' | 'actualExpenses'>[];

/** Revenue projections and actual revenue: the company, the source and the amount. */
export const revenueFields = [
  companyField,
  { name: 'source', label: msg('Source'), kind: 'text', required: true, max: 255, suggestions: REVENUE_SOURCES },
  { name: 'amount', label: msg('Amount'), kind: 'money', required: true },
] as const satisfies readonly FieldOf<'revenueProjections' | 'actualRevenue'>[];
