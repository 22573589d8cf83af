// What other areas use of users in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export {
  ActivityHistoryQuerySchema,
  CreateUserSchema,
  EXAMINED_ENTRIES,
  PermissionsSchema,
  UpdateUserSchema,
  UserListQuerySchema,
} from './schemas.ts';
export { UserFilter } from './user-filter.tsx';
