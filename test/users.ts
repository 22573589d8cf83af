// Creating users directly in the database for tests (the user-management UI comes later).
import type { Role, PermissionFlag } from '../app/platform/lib/permissions.ts';
import { hashPassword } from '../app/features/auth/passwords.server.ts';
import type { Db } from '../app/platform/context.ts';

export const TEST_PASSWORD = 'Test-Password-1';

// Hashing is deliberately slow: the default password is hashed once per
// process and its hash shared. Verification at sign-in stays real.
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

let counter = 0;
export async function createTestUser(
  db: Db,
  options: {
    role?: Role;
    companyId?: number | null;
    flags?: Partial<Record<PermissionFlag, boolean>>;
    password?: string;
    email?: string;
    isTemporaryPassword?: boolean;
    isActive?: boolean;
  } = {},
) {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${counter}`;
  const email = options.email ?? `${options.role ?? 'viewer'}-${stamp}@example.com`;
  return db
    .insertInto('users')
    .values({
      username: email.split('@')[0],
      email,
      passwordHash: await hashOnce(options.password ?? TEST_PASSWORD),
      role: options.role ?? 'viewer',
      companyId: options.companyId ?? null,
      isTemporaryPassword: options.isTemporaryPassword ?? false,
      isActive: options.isActive ?? true,
      ...options.flags,
    })
    .returning(['id', 'email', 'username', 'role', 'companyId'])
    .executeTakeFirstOrThrow();
}
