// The users' schemas: the texts the screens show are messages, and the /api's English is the
// same as before they were.
import { describe, expect, it } from 'vitest';
import { CreateUserFormSchema, CreateUserSchema, EditUserFormSchema } from './schemas.ts';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.success ? [] : (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('users schemas', () => {
  const user = { username: 'ada', email: 'ada@example.com', password: 'Long-enough-1', role: 'viewer' };

  it('the /api answers a full name’s errors in English, as before', () => {
    expect(messages(CreateUserSchema.safeParse({ ...user, fullName: 'x'.repeat(256) }))).toEqual([
      'fullName: Full name must be at most 255 characters',
    ]);
    expect(messages(CreateUserSchema.safeParse({ ...user, fullName: 'Ada\u0000' }))).toEqual([
      'fullName: Full name must not contain NUL characters',
    ]);
  });

  it('the forms refuse company 0 with their own message, not the service’s', () => {
    const form = { ...user, companyId: '0' };
    expect(messages(CreateUserFormSchema.safeParse(form))).toEqual(['companyId: Select a company or All Companies']);
    expect(messages(EditUserFormSchema.safeParse(form))).toEqual(['companyId: Select a company or All Companies']);
    expect(CreateUserFormSchema.parse({ ...form, companyId: '12' }).companyId).toBe(12);
    expect(CreateUserFormSchema.parse({ ...form, companyId: 'all' }).companyId).toBeNull();
  });
});
