// Totals from the books for the AI chat (offline answers and the language model's tools): sums
// of expenses or revenue over a period, for one company or all the caller may see, optionally
// grouped by category, department, source, company or month, or (expenses) for one category
// name, read from the maintained month totals (figures.server.ts) like the dashboard's. Same
// permission and company scope as the other AI services: a scoped user's totals never include
// another company.
import { z } from 'zod';
import { scopedCompany } from './ai-analytics.server.ts';
import { actorCompanyScope, requirePermission, type ServiceContext } from '../../platform/context.ts';
import { fieldErrorsFromZod, invalid } from '../../platform/errors.ts';
import { expenseTotals, revenueTotals, TOTAL_GROUPINGS, type TotalGrouping } from '../finance/index.server.ts';

export const LEDGERS = ['expenses', 'revenue'] as const;
export const GROUPINGS = TOTAL_GROUPINGS;
export type Ledger = (typeof LEDGERS)[number];
export type Grouping = TotalGrouping;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)');

export const TotalsRequest = z
  .object({
    ledger: z.enum(LEDGERS, { error: `ledger must be one of: ${LEDGERS.join(', ')}` }),
    companyId: z.number().int().positive().max(2_147_483_647).nullish(),
    from: day,
    to: day,
    groupBy: z.enum(GROUPINGS, { error: `groupBy must be one of: ${GROUPINGS.join(', ')}` }).default('none'),
    /** Expenses of the categories with this name only. */
    category: z.string().trim().min(1).max(100).optional(),
  })
  .refine((r) => r.from <= r.to, { message: 'from must not be after to', path: ['to'] })
  .refine((r) => !(r.ledger === 'revenue' && (r.groupBy === 'category' || r.groupBy === 'department')), {
    message: 'revenue is grouped by source, company or month',
    path: ['groupBy'],
  })
  .refine((r) => !(r.ledger === 'revenue' && r.category), {
    message: 'category applies to expenses only',
    path: ['category'],
  })
  .refine((r) => !(r.ledger === 'expenses' && r.groupBy === 'source'), {
    message: 'expenses are grouped by category, department, company or month',
    path: ['groupBy'],
  });

export interface LedgerTotals {
  ledger: Ledger;
  companyId: number | null;
  from: string;
  to: string;
  /** US dollars. */
  total: number;
  count: number;
  /** Largest first, at most 20 (by month: in order). */
  groups: { label: string; amount: number; count: number }[];
}

const MAX_GROUPS = 20;

/** The sums of one ledger over a period, within the caller's permission and company scope. */
export async function ledgerTotals(ctx: ServiceContext, input: unknown): Promise<LedgerTotals> {
  requirePermission(ctx, 'analytics');
  const parsed = TotalsRequest.safeParse(input ?? {});
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const request = parsed.data;
  const companyId = await scopedCompany(ctx, request.companyId);
  const rows =
    request.ledger === 'expenses'
      ? await expenseTotals(ctx.db, companyId, request)
      : await revenueTotals(ctx.db, companyId, request);
  const groups = rows.map((r) => ({
    label: String(r.label ?? ''),
    amount: Number(r.cents ?? 0) / 100,
    count: Number(r.count),
  }));
  const total = groups.reduce((sum, g) => sum + g.amount, 0);
  const count = groups.reduce((sum, g) => sum + g.count, 0);
  const ordered =
    request.groupBy === 'month'
      ? groups.sort((a, b) => a.label.localeCompare(b.label))
      : groups.sort((a, b) => b.amount - a.amount);
  return {
    ledger: request.ledger,
    companyId,
    from: request.from,
    to: request.to,
    total: Math.round(total * 100) / 100,
    count,
    groups: request.groupBy === 'none' ? [] : ordered.slice(0, MAX_GROUPS),
  };
}

/** The companies the caller may ask about (a scoped user: their own). */
export async function visibleCompanies(ctx: ServiceContext): Promise<{ id: number; name: string; type: string }[]> {
  requirePermission(ctx, 'analytics');
  const scope = actorCompanyScope(ctx);
  return ctx.db
    .selectFrom('companies')
    .select(['id', 'name', 'type'])
    .$if(scope !== null, (q) => q.where('id', '=', scope!))
    .orderBy('name')
    .execute();
}
