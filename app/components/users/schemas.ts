// What the User Management screen shows beside the shared user definitions (app/lib/users.ts):
// role badge colours and the activity history's table filter.
import type { Role } from '../../lib/permissions.ts';

export const ROLE_BADGE: Record<Role, string> = {
  owner: 'bg-red-100 text-red-800',
  admin: 'bg-orange-100 text-orange-800',
  editor: 'bg-blue-100 text-blue-800',
  viewer: 'bg-gray-100 text-gray-800',
};

export const HISTORY_TABLE_CHOICES = [
  { value: 'users', label: 'Users' },
  { value: 'companies', label: 'Companies' },
  { value: 'budgets', label: 'Budgets' },
  { value: 'actual_expenses', label: 'Expenses' },
] as const;
