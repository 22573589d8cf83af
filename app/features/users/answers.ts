// What the user-management calls of /api answer, as zod schemas: the one description of these
// answers. The services' types are these schemas' outputs (the signed-in user's columns are
// checked against the platform's AuthUser), and the OpenAPI document describes the answers with
// them (app/features/api-docs), so the code and the document cannot disagree.
import { z } from 'zod';
import { count, id, instant } from '../../platform/lib/answer-fields.ts';
import { ROLES } from '../../../db/types.ts';
import type { AuthUser } from '../../platform/context.ts';
import { PERMISSION_FLAGS, type PermissionFlag } from '../../platform/lib/permissions.ts';
import type { Assert, Same } from '../../platform/lib/type-checks.ts';

const minutes = z.number().min(0).describe('Minutes, one decimal');

const permissionFlags = z.strictObject(
  Object.fromEntries(
    PERMISSION_FLAGS.map((flag) => [flag, z.boolean().describe('As stored; the role’s baseline may grant more')]),
  ) as Record<PermissionFlag, z.ZodBoolean>,
);

/** The columns every session reads of a user (the platform's AuthUser): never the password hash. */
const PublicUserAnswer = z.strictObject({
  id,
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  companyId: id.nullable().describe('The one company the user is limited to (null: every company)'),
  fullName: z.string().nullable(),
  position: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  isActive: z.boolean(),
  isTemporaryPassword: z.boolean().describe('The password must be changed at the next sign-in'),
  passwordChangeRequired: z.boolean(),
  lastLoginAt: instant.nullable(),
  createdAt: instant,
  ...permissionFlags.shape,
});
type _PublicColumnsMatch = Assert<Same<z.output<typeof PublicUserAnswer>, { [K in keyof AuthUser]: AuthUser[K] }>>;

/** A user as User Management lists it and the /api/users calls answer it. */
export const UserAnswer = PublicUserAnswer.extend({
  updatedAt: instant,
  createdBy: id.nullable().describe('Who created the account (null: the system, the CLI, or a deleted user)'),
  lastActivityAt: instant.nullable(),
  loginCount: count,
  totalSessionDuration: count.describe('Seconds over the ended sessions'),
  averageSessionDuration: count.describe('Seconds'),
  company: z.strictObject({ id, name: z.string() }).nullable(),
});
export type ListedUser = z.output<typeof UserAnswer>;

/** GET /api/users: one page. */
export const UserPageAnswer = z.strictObject({
  users: z.array(UserAnswer),
  total: count.describe('Users matching the query'),
  totalPages: count,
});

/** POST /api/users: the new user, with the generated password when the body asked for one. */
export const CreatedUserAnswer = UserAnswer.extend({
  temporaryPassword: z
    .string()
    .optional()
    .describe('Only when the body said temporaryPassword: true; shown this once, stored only as a hash'),
});
export type CreatedUser = z.output<typeof CreatedUserAnswer>;

/** POST /api/users/{id}/temporary-password. */
export const TemporaryPasswordAnswer = z.strictObject({
  temporaryPassword: z.string().describe('Shown this once; the user must change it at the next sign-in'),
});

/** POST /api/users/{id}/change-password. */
export const PasswordChangedAnswer = z.strictObject({ success: z.literal(true), message: z.string() });
export type PasswordChanged = z.output<typeof PasswordChangedAnswer>;

/** GET /api/users/stats: totals over the users the caller may see. */
export const UserStatsAnswer = z.strictObject({
  totalUsers: count,
  activeUsers: count,
  inactiveUsers: count,
  usersByRole: z.record(z.enum(ROLES), count).describe('Every role, active or not'),
});
export type UserStats = z.output<typeof UserStatsAnswer>;

// ---------------------------------------------------------------------------------------------
// Activity

export const ActivityLevelAnswer = z.enum(['high', 'medium', 'low', 'inactive']);
export type ActivityLevel = z.output<typeof ActivityLevelAnswer>;

const UserActivityAnswer = z.strictObject({
  userId: id,
  username: z.string(),
  fullName: z.string().nullable(),
  email: z.string(),
  role: z.enum(ROLES),
  isActive: z.boolean(),
  activityLevel: ActivityLevelAnswer,
  totalLogins: count.describe('Every sign-in (session) on record'),
  totalSessionTime: minutes,
  averageSessionTime: minutes,
  lastLogin: instant.nullable(),
  lastActivity: instant.nullable(),
  activityScore: count
    .max(100)
    .describe('Over the activity window (2 × entries + 1 × edits + 3 × sign-ins, at most 100)'),
  recentLogins: count,
  recentEntries: count,
  recentEdits: count,
});
export type UserActivity = z.output<typeof UserActivityAnswer>;

/** GET /api/users/activity/analytics: every user the caller may see, most active first. */
export const ActivityAnalyticsAnswer = z.strictObject({
  summary: z.strictObject({
    totalUsers: count,
    activeUsers: count.describe('Active accounts seen within the last 7 days'),
    loginsToday: count.describe('Since midnight UTC'),
    averageSessionDuration: minutes,
  }),
  users: z.array(UserActivityAnswer),
  computedAt: instant.describe('When the activity-window job counted the scores’ entries and edits'),
});
export type ActivityAnalytics = z.output<typeof ActivityAnalyticsAnswer>;

/** GET /api/users/activity/statistics. */
export const ActivityStatisticsAnswer = z.strictObject({
  windowDays: count,
  since: instant.describe('Where the counted window starts'),
  computedAt: instant.describe('When the activity-window job counted the window’s events'),
  totalEvents: count,
  eventsByAction: z.record(z.string(), count),
  eventsByTable: z.record(z.string(), count).describe('By table (snake_case)'),
  loginsToday: count,
  loginsThisWeek: count,
  failedLoginsToday: count,
  activeSessions: count,
  activeUsersThisWeek: count.describe('Distinct users who signed in within the last 7 days'),
  mostActiveUsers: z.array(
    z.strictObject({
      userId: id,
      username: z.string(),
      fullName: z.string().nullable(),
      email: z.string(),
      events: count,
    }),
  ),
});
export type ActivityStatistics = z.output<typeof ActivityStatisticsAnswer>;

const ActivityEventAnswer = z.strictObject({
  id,
  user: z
    .strictObject({ id, username: z.string(), fullName: z.string().nullable(), email: z.string() })
    .nullable()
    .describe('null: no user (the system, the CLI, an unknown sign-in) or a deleted one'),
  actorLabel: z.string().nullable().describe('Who acted as recorded: a username, or system, cli, worker'),
  action: z.string().describe('login, login_failed, logout, create, update, delete, restore…'),
  tableName: z.string().describe('snake_case'),
  recordId: id.nullable(),
  timestamp: instant,
  ipAddress: z.string().nullable(),
  reason: z.string().nullable(),
});
export type ActivityEvent = z.output<typeof ActivityEventAnswer>;

/** GET /api/users/activity/history: one page, newest first. */
export const ActivityHistoryAnswer = z.strictObject({
  events: z.array(ActivityEventAnswer),
  total: count,
  totalPages: count,
});
