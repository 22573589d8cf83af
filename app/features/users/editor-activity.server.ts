// Editors' activity records: their
// writes as the audit trail recorded them, with a description, the amount and category of a
// finance row, the company, and a shortcut to the row on its screen. Read in two queries (the
// entries, then the names of the categories they mention): no query per row.
import { dialectOf, filterOnly } from '../../../db/dialect.ts';
import { AUDITED_TABLES, findResource, RESOURCE_LIST } from '../resources.ts';
import type { ResourceDef } from '../../platform/resources/define.ts';
import { camelCase, snakeCase } from '../../platform/lib/names.ts';
import { actingUser, type Db, type ServiceContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { updateRecord } from '../../platform/resources/resource-writes.server.ts';
import type { ApiRow } from '../../platform/resources/resource-rows.server.ts';
import { anyResourcePatchBody } from '../../platform/http/request-bodies.server.ts';

/** The screens an activity's row can be edited on (`?edit=ID`). */
export const EDIT_SCREENS: Readonly<Record<string, string>> = {
  companies: '/companies',
  departments: '/departments',
  expense_categories: '/expense-categories',
  budgets: '/budget-planning',
  actual_expenses: '/actual-expenses',
  revenue_projections: '/revenue-projections',
  actual_revenue: '/actual-revenue',
};

export const WRITE_ACTIONS = ['create', 'update', 'delete', 'restore'] as const;

const VERBS: Record<string, string> = { create: 'Added', update: 'Edited', delete: 'Deleted', restore: 'Restored' };
const TABLE_LABELS = new Map(AUDITED_TABLES.map((t) => [t.value, t.label]));

export interface EditorActivity {
  id: number;
  userId: number;
  username: string;
  fullName: string | null;
  action: string;
  tableName: string;
  recordId: number | null;
  description: string;
  /** US dollars, for rows with an amount. */
  amount: number | null;
  category: string | null;
  company: string | null;
  timestamp: string;
  ipAddress: string | null;
  /** The row on its screen, for a row that still exists there. */
  editUrl: string | null;
}

export interface ActivityFilter {
  /** One user's activity. */
  userId?: number;
  /** Editors only (Editor Statistics). */
  editorsOnly?: boolean;
  /** Users of this company only (a company-limited reader). */
  companyId?: number | null;
  limit: number;
}

type Data = Record<string, unknown> | null;

export async function editorActivities(db: Db, filter: ActivityFilter): Promise<EditorActivity[]> {
  // The actions and users whose writes count filter the newest entries (read from the time
  // index until the limit is met) instead of leading to all their entries.
  const author = filterOnly<number>(dialectOf(db), 'a.userId');
  const action = filterOnly<string>(dialectOf(db), 'a.action');
  const rows = await db
    .selectFrom('auditLogs as a')
    .innerJoin('users as u', 'u.id', 'a.userId')
    .leftJoin('companies as c', 'c.id', 'a.companyId')
    .select([
      'a.id',
      'a.userId',
      'u.username',
      'u.fullName',
      'a.action',
      'a.tableName',
      'a.recordId',
      'a.timestamp',
      'a.ipAddress',
      'a.newData',
      'a.oldData',
      'c.name as company',
    ])
    .where(action, 'in', [...WRITE_ACTIONS])
    .$if(filter.userId !== undefined, (q) => q.where('a.userId', '=', filter.userId!))
    .$if(filter.editorsOnly === true || filter.companyId != null, (q) =>
      q.where(author, 'in', (eb) =>
        eb
          .selectFrom('users')
          .select('id')
          .$if(filter.editorsOnly === true, (s) => s.where('role', '=', 'editor'))
          .$if(filter.companyId != null, (s) => s.where('companyId', '=', filter.companyId!)),
      ),
    )
    .orderBy('a.timestamp', 'desc')
    .orderBy('a.id', 'desc')
    .limit(filter.limit)
    .execute();
  const dataOf = (r: (typeof rows)[number]): Data => ((r.newData ?? r.oldData) as Data) ?? null;
  const categoryIds = [
    ...new Set(rows.map((r) => dataOf(r)?.categoryId).filter((v): v is number => typeof v === 'number')),
  ];
  const categories = categoryIds.length
    ? await db.selectFrom('expenseCategories').select(['id', 'name']).where('id', 'in', categoryIds).execute()
    : [];
  const categoryName = new Map(categories.map((c) => [c.id, c.name]));
  return rows.map((r) => {
    const data = dataOf(r);
    const text =
      typeof data?.description === 'string' && data.description
        ? `: ${data.description}`
        : typeof data?.name === 'string'
          ? `: ${data.name}`
          : '';
    const label = TABLE_LABELS.get(r.tableName) ?? r.tableName;
    const screen = EDIT_SCREENS[r.tableName];
    return {
      id: r.id,
      userId: r.userId!,
      username: r.username,
      fullName: r.fullName,
      action: r.action,
      tableName: r.tableName,
      recordId: r.recordId,
      description: `${VERBS[r.action] ?? r.action} ${label}${r.recordId ? ` #${r.recordId}` : ''}${text}`.slice(0, 300),
      amount: typeof data?.amountCents === 'number' ? data.amountCents / 100 : null,
      category: typeof data?.categoryId === 'number' ? (categoryName.get(data.categoryId) ?? null) : null,
      company: r.company ?? null,
      timestamp: r.timestamp,
      ipAddress: r.ipAddress || null,
      editUrl: screen && r.recordId && r.action !== 'delete' ? `${screen}?edit=${r.recordId}` : null,
    };
  });
}

/** The declared resource an audited table holds. */
function resourceOfTable(tableName: string): ResourceDef | undefined {
  return RESOURCE_LIST.find((def) => def.table === camelCase(tableName)) ?? findResource(tableName);
}

/**
 * PATCH /api/editor/activities/{id}'s body: a change under the rules of the resource the activity
 * is about, one of those an activity's row can be edited on.
 */
export const ActivityPatchBody = anyResourcePatchBody(
  RESOURCE_LIST.filter((def) => EDIT_SCREENS[snakeCase(def.table)] !== undefined),
);

/**
 * PATCH /api/editor/activities/{id}: the row an activity of the caller's is about, changed with
 * the given fields through the resource's own rules (validation, permission, company scope,
 * audit). Another user's activity, or one about a row that is not a resource, is a 404.
 */
export async function updateActivityRecord(ctx: ServiceContext, activityId: number, input: unknown): Promise<ApiRow> {
  const user = actingUser(ctx);
  if (!user) throw notFound();
  const entry = await ctx.db
    .selectFrom('auditLogs')
    .select(['tableName', 'recordId', 'userId'])
    .where('id', '=', activityId)
    .executeTakeFirst();
  if (!entry || entry.userId !== user.id || entry.recordId === null) throw notFound();
  const def = resourceOfTable(entry.tableName);
  if (!def || !EDIT_SCREENS[entry.tableName]) throw notFound();
  return updateRecord(ctx, def, entry.recordId, input);
}
