// What the dashboard and editor calls of /api answer, as zod schemas: the one description of
// these answers. The services' types are these schemas' outputs (or are checked against them
// where another area builds the answer), and the OpenAPI document describes the answers with
// them (app/features/api-docs), so the code and the document cannot disagree.
import { z } from 'zod';
import { count, id, instant } from '../../platform/lib/answer-fields.ts';
import { COMPANY_TYPES, ROLES } from '../../../db/types.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';
import { resourceRowSchema } from '../../platform/resources/row-schema.ts';
import { RESOURCE_LIST } from '../resources.ts';
import { HealthVerdictAnswer } from '../system/index.server.ts';
import type { ActivityLevel, EditorActivity } from '../users/index.server.ts';

// ---------------------------------------------------------------------------------------------
// GET /api/dashboard

/** The signed-in user's 'Your Access Level' card. */
export const UserAccessAnswer = z.strictObject({
  companyName: z.string().describe('Their company, or "All Companies"'),
  companyType: z.enum([...COMPANY_TYPES, 'all']),
  role: z.enum(ROLES),
  accessLevel: z.enum(['Full Access (System Owner)', 'Full Access', 'Read & Write', 'Read Only']),
  permissions: z.strictObject({
    canAccessFinancialData: z.boolean(),
    canAccessSubscriberData: z.boolean(),
    canAccessAnalytics: z.boolean(),
    canManageUsers: z.boolean(),
  }),
  availableCompanies: z.array(z.strictObject({ id, name: z.string(), type: z.enum(COMPANY_TYPES) })),
});
export type UserAccess = z.output<typeof UserAccessAnswer>;

export const DashboardActivityAnswer = z.strictObject({
  id,
  action: z.string(),
  tableName: z.string().describe('snake_case'),
  tableLabel: z.string().describe('The table as its screen is titled'),
  username: z.string(),
  timestamp: instant,
});
export type DashboardActivity = z.output<typeof DashboardActivityAnswer>;

export const DashboardSyncRunAnswer = z.strictObject({
  id,
  status: z.enum(['running', 'success', 'partial', 'failed']),
  sourceName: z.string().nullable(),
  endpointName: z.string().nullable(),
  startTime: instant,
  endTime: instant.nullable(),
  recordsProcessed: count,
  errorMessage: z.string().nullable(),
  timestamp: instant.describe('When the run last changed: its end, or its start while it runs'),
});
export type DashboardSyncRun = z.output<typeof DashboardSyncRunAnswer>;

export const DashboardAlertAnswer = z.strictObject({
  id,
  username: z.string(),
  anomalyType: z.string(),
  description: z.string(),
  windowEnd: instant,
});
export type DashboardAlert = z.output<typeof DashboardAlertAnswer>;

const MonthPairAnswer = z.strictObject({
  month: z.string().describe('YYYY-MM'),
  planned: z.number().describe('US dollars'),
  actual: z.number().describe('US dollars'),
});

export const DashboardChartsAnswer = z.strictObject({
  companyId: id.nullable().describe('The company the figures are limited to (null: every company)'),
  months: z.array(z.string().describe('YYYY-MM')),
  budgetVsActual: z.array(MonthPairAnswer),
  revenue: z.array(MonthPairAnswer),
});
export type DashboardCharts = z.output<typeof DashboardChartsAnswer>;

/** GET /api/dashboard: every figure the caller may not see is null. */
export const DashboardAnswer = z.strictObject({
  updatedAt: instant,
  userAccess: UserAccessAnswer,
  userStats: z.strictObject({ activeUsers: count, totalUsers: count }).nullable(),
  api: z.strictObject({ successRate: z.number().describe('Percent'), runs: count, windowDays: count }).nullable(),
  systemHealth: HealthVerdictAnswer.nullable().describe('For those who may open System Monitoring'),
  lastBackup: z
    .strictObject({ backup: z.strictObject({ id, name: z.string(), createdAt: instant }).nullable() })
    .nullable()
    .describe('backup null: none completed yet'),
  recentActivity: z.array(DashboardActivityAnswer).nullable(),
  apiActivity: z.array(DashboardSyncRunAnswer).nullable(),
  alerts: z.array(DashboardAlertAnswer).nullable(),
  charts: DashboardChartsAnswer.nullable(),
});
export type Dashboard = z.output<typeof DashboardAnswer>;

// ---------------------------------------------------------------------------------------------
// The editors: My Dashboard's calls and Editor Statistics

const ActivityLevelAnswer = z.enum(['high', 'medium', 'low', 'inactive']);
type _LevelsMatch = Assert<Same<z.output<typeof ActivityLevelAnswer>, ActivityLevel>>;

/** One write of an editor, as the audit trail recorded it (users' editor-activity.server.ts builds it). */
export const EditorActivityAnswer = z.strictObject({
  id,
  userId: id,
  username: z.string(),
  fullName: z.string().nullable(),
  action: z.string().describe('create, update, delete or restore'),
  tableName: z.string().describe('snake_case'),
  recordId: id.nullable(),
  description: z.string(),
  amount: z.number().nullable().describe('US dollars, for rows with an amount'),
  category: z.string().nullable(),
  company: z.string().nullable(),
  timestamp: instant,
  ipAddress: z.string().nullable(),
  editUrl: z.string().nullable().describe('The row on its screen, for a row that still exists there'),
});
type _ActivityMatches = Assert<Same<z.output<typeof EditorActivityAnswer>, EditorActivity>>;

/** GET /api/editor/activities and /api/admin/editor-activity-history: writes, newest first. */
export const EditorActivityListAnswer = z.array(EditorActivityAnswer);

/** The screens an activity's row can be changed on (PATCH /api/editor/activities/{id}), by table. */
export const EDITABLE_TABLES = [
  'companies',
  'departments',
  'expense_categories',
  'budgets',
  'actual_expenses',
  'revenue_projections',
  'actual_revenue',
] as const;

/** PATCH /api/editor/activities/{id}: the changed row, as its resource answers it. */
export const EditedRowAnswer = z.union(
  RESOURCE_LIST.filter((def) => (EDITABLE_TABLES as readonly string[]).includes(snakeCase(def.table))).map((def) =>
    resourceRowSchema(def),
  ),
);

const goal = <T extends z.ZodType>(actual: T) => z.strictObject({ target: count, actual, percentage: z.number() });

/** GET /api/editor/metrics: the signed-in editor's own figures. */
export const EditorMetricsAnswer = z.strictObject({
  totalEntries: count,
  totalEdits: count,
  averageSessionTime: z.number().describe('Minutes, one decimal'),
  lastLoginDate: z.string().nullable().describe('YYYY-MM-DD'),
  lastLoginTime: z.string().nullable().describe('HH:MM (UTC)'),
  weeklyHours: z.number(),
  week: z.strictObject({ entries: count, edits: count }),
  activityScore: count,
  activityLevel: ActivityLevelAnswer,
  performance: z
    .strictObject({ entries: z.number(), edits: z.number(), other: z.number(), changes: z.number().int() })
    .describe('Percent of the last 30 days’ changes that were entries, edits and others (deletes, restores)'),
  goals: z.strictObject({
    entries: goal(count),
    hours: goal(z.number()),
    accuracy: z
      .strictObject({ target: count, actual: z.number().nullable(), judged: count, corrected: count })
      .describe('Over the latest entries made 7 to 30 days ago; actual null: none to judge yet'),
  }),
  budgetVariances: z.strictObject({ overBudget: count, underBudget: count, onTarget: count, year: z.number().int() }),
  departmentPerformance: z
    .array(z.strictObject({ department: z.string(), variance: z.number().nullable(), frequency: count }))
    .describe(
      'variance: percent over (or under) budget this year; frequency: among the latest examinedEntries entries',
    ),
  examinedEntries: count,
  insights: z.array(z.string()),
  companyAccess: z.array(z.string()),
  recentActivity: z.array(EditorActivityAnswer),
});
export type EditorMetrics = z.output<typeof EditorMetricsAnswer>;

const EditorStatAnswer = z.strictObject({
  userId: id,
  fullName: z.string(),
  email: z.string(),
  companyName: z.string(),
  isActive: z.boolean(),
  activityScore: count,
  activityLevel: ActivityLevelAnswer,
  weeklyHours: z.number().describe('Hours, one decimal'),
  totalEntries: count,
  totalEdits: count,
  lastLoginDate: instant.nullable(),
  loginCount: count,
});

/** GET /api/admin/editor-stats (users' editor-stats.server.ts builds it; answers.test.ts checks the two agree). */
export const EditorStatsAnswer = z.strictObject({
  windowDays: count,
  computedAt: instant.describe('When the activity-window job counted the entries and edits'),
  summary: z.strictObject({
    totalEditors: count,
    activeEditors: count,
    weeklyHours: z.number(),
    totalEntries: count,
    totalEdits: count,
    averageScore: count,
  }),
  editors: z.array(EditorStatAnswer),
  topPerformers: z.array(EditorStatAnswer),
  distribution: z.array(z.strictObject({ level: ActivityLevelAnswer, count, percentage: z.number() })),
  companies: z.array(
    z.strictObject({
      companyName: z.string(),
      editors: count,
      activeEditors: count,
      weeklyHours: z.number(),
      averageScore: count,
      entriesPerEditor: z.number(),
      editsPerEditor: z.number(),
      hoursPerEditor: z.number(),
      editRatio: z.number().nullable().describe('Edits ÷ entries (null without entries)'),
      activeRate: z.number().describe('Percent of the company’s editors who are active'),
    }),
  ),
});
