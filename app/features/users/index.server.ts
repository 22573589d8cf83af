// What other areas use of users on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export {
  ActivityAnalyticsAnswer,
  ActivityHistoryAnswer,
  ActivityStatisticsAnswer,
  CreatedUserAnswer,
  PasswordChangedAnswer,
  TemporaryPasswordAnswer,
  UserAnswer,
  UserPageAnswer,
  UserStatsAnswer,
} from './answers.ts';
export { ActivityPatchBody, editorActivities, type EditorActivity } from './editor-activity.server.ts';
export { workOf } from './editor-stats.server.ts';
export { selfServiceEntries } from './self-service.server.ts';
export {
  ACTIVITY_WINDOW_DAYS,
  activityLevel,
  type ActivityLevel,
  activityScore,
  toMinutes,
} from './user-activity.server.ts';
export { type UserChoice, userChoices, userNamed } from './user-filter.server.ts';
export { assertMayManage } from './user-policy.server.ts';
export {
  findUserById,
  findUserByIdOrEmail,
  findUserForLogin,
  findUserIdByKey,
  normalizeEmail,
} from './user-queries.server.ts';
export { userStats } from './user-stats.server.ts';
export {
  ActivityHistoryQuerySchema,
  CreateUserSchema,
  PermissionsSchema,
  UpdateUserSchema,
  UserListQuerySchema,
} from './schemas.ts';
