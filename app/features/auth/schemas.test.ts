// Sign-in and password schemas shared by forms, the JSON API and the CLI: passwords of at least
// 8 characters everywhere, and a new one must differ from the current one.
import { describe, expect, it } from 'vitest';
import { AdminSetPasswordSchema, ChangePasswordFormSchema, ChangePasswordSchema, LoginSchema } from './schemas.ts';

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

describe('LoginSchema', () => {
  it('accepts an e-mail and password, trims the e-mail and defaults rememberMe to false', () => {
    const parsed = LoginSchema.parse({ email: '  someone@example.com ', password: 'x' });
    expect(parsed).toEqual({ email: 'someone@example.com', password: 'x', rememberMe: false });
    expect(LoginSchema.parse({ email: 'a@b.co', password: 'x', rememberMe: true }).rememberMe).toBe(true);
  });

  it('reports missing and empty fields with the same message', () => {
    expect(issues(LoginSchema.safeParse({}))).toEqual([
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ]);
  });

  it('an empty e-mail reports only "Email is required", exactly as a missing one does', () => {
    // The schema's own contract ("missing" and "empty" give the same text): an empty field
    // must not also be called an invalid address.
    expect(issues(LoginSchema.safeParse({ email: '', password: '' }))).toEqual([
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ]);
  });

  it('rejects malformed e-mail addresses and non-text values', () => {
    for (const email of ['plain', 'a@b', 'a b@c.de', '@example.com']) {
      expect(issues(LoginSchema.safeParse({ email, password: 'x' })), email).toEqual([
        ['email', 'Please enter a valid email address'],
      ]);
    }
    expect(LoginSchema.safeParse({ email: 42, password: 'x' }).success).toBe(false);
    expect(LoginSchema.safeParse({ email: 'a@b.co', password: ['x'] }).success).toBe(false);
  });

  it('bounds the password length', () => {
    expect(issues(LoginSchema.safeParse({ email: 'a@b.co', password: 'x'.repeat(257) }))).toEqual([
      ['password', 'Password is too long'],
    ]);
  });
});

describe('ChangePasswordSchema', () => {
  it('needs the current password, 8+ characters, and a different new password', () => {
    expect(
      ChangePasswordSchema.safeParse({ currentPassword: 'old-password', newPassword: 'new-password' }).success,
    ).toBe(true);
    expect(issues(ChangePasswordSchema.safeParse({ newPassword: 'new-password' }))).toEqual([
      ['currentPassword', 'Current password is required'],
    ]);
    expect(issues(ChangePasswordSchema.safeParse({ currentPassword: 'old-password', newPassword: 'short12' }))).toEqual(
      [['newPassword', 'New password must be at least 8 characters']],
    );
    expect(ChangePasswordSchema.safeParse({ currentPassword: 'old-password', newPassword: '12345678' }).success).toBe(
      true,
    );
    expect(
      issues(ChangePasswordSchema.safeParse({ currentPassword: 'same-password', newPassword: 'same-password' })),
    ).toEqual([['newPassword', 'New password must be different from the current password']]);
  });

  it('the form variant also checks the confirmation', () => {
    expect(
      issues(
        ChangePasswordFormSchema.safeParse({
          currentPassword: 'old-password',
          newPassword: 'new-password',
          confirmPassword: 'other-password',
        }),
      ),
    ).toEqual([['confirmPassword', "New passwords don't match"]]);
    expect(
      ChangePasswordFormSchema.safeParse({
        currentPassword: 'old-password',
        newPassword: 'new-password',
        confirmPassword: 'new-password',
      }).success,
    ).toBe(true);
  });

  it('an administrator needs no current password, but still 8+ characters', () => {
    expect(AdminSetPasswordSchema.safeParse({ newPassword: 'new-password' }).success).toBe(true);
    expect(issues(AdminSetPasswordSchema.safeParse({ newPassword: 'short' }))).toEqual([
      ['newPassword', 'New password must be at least 8 characters'],
    ]);
  });
});
