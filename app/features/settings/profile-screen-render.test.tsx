// The profile form's field errors as the server renders them for a reader: the length and NUL
// errors of Full name, Position and Phone number are messages, said in the reader's language,
// while the schema (shared with the /api) keeps answering the English it always did.
import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../platform/i18n/locales.ts';
import type { AuthUser } from '../../platform/context.ts';
import { ProfileSchema } from './profile-schemas.ts';
import { ProfileScreen, type ProfileData } from './profile-screen.tsx';
import { renderScreen } from '../../../test/render-screen.tsx';

const USER: AuthUser = {
  id: 7,
  role: 'viewer',
  companyId: null,
  canAccessFinancialData: false,
  canAccessSubscriberData: false,
  canAccessApiIntegrations: false,
  canAccessAnalytics: false,
  canAccessAuditLogs: false,
  canAccessBackups: false,
  canCreate: false,
  canEdit: false,
  canDelete: false,
  canManageUsers: false,
  username: 'ada',
  email: 'ada@example.com',
  fullName: null,
  position: null,
  phoneNumber: null,
  isActive: true,
  isTemporaryPassword: false,
  passwordChangeRequired: false,
  lastLoginAt: null,
  createdAt: '2026-01-05T10:00:00.000Z',
};

const DATA: ProfileData = {
  profile: { user: USER, companyName: null, passwordChangedAt: null },
  editing: true,
  changingPassword: false,
  twoFactorEnabled: false,
};

/** The profile form posted with a name too long, a NUL in the position and a phone number too long. */
function refusedPost() {
  const form = new FormData();
  form.set('username', 'ada');
  form.set('email', 'ada@example.com');
  form.set('fullName', 'x'.repeat(256));
  form.set('position', 'Ana\u0000lyst');
  form.set('phoneNumber', '1'.repeat(51));
  const submission = parseWithZod(form, { schema: ProfileSchema });
  if (submission.status !== 'error') throw new Error('expected the post to be refused');
  return { intent: 'profile', result: submission.reply() };
}

const render = (locale: Locale) =>
  renderScreen(<ProfileScreen data={DATA} actionData={refusedPost()} />, {
    url: '/profile?edit=1',
    locale,
    areas: ['settings'],
  });

/** The text of a field's error paragraph. */
function fieldError(html: string, field: string): string | undefined {
  return new RegExp(`data-testid="[^"]*-${field}-error">([^<]*)</p>`).exec(html)?.[1];
}

describe('the profile form’s field errors in the reader’s language', () => {
  it('English: the texts the /api answers', async () => {
    const html = await render('en');
    expect(fieldError(html, 'fullName')).toBe('Full name must be at most 255 characters');
    expect(fieldError(html, 'position')).toBe('Position must not contain NUL characters');
    expect(fieldError(html, 'phoneNumber')).toBe('Phone number must be at most 50 characters');
  });

  it('Spanish: translated', async () => {
    const html = await render('es');
    expect(fieldError(html, 'fullName')).toBe('El nombre completo debe tener como máximo 255 caracteres');
    expect(fieldError(html, 'position')).toBe('El cargo no debe contener caracteres NUL');
    expect(fieldError(html, 'phoneNumber')).toBe('El número de teléfono debe tener como máximo 50 caracteres');
    expect(html).not.toMatch(/must be at most|must not contain/);
  });

  it('French and German: translated too', async () => {
    expect(fieldError(await render('fr'), 'fullName')).toBe('Le nom complet doit comporter au maximum 255 caractères');
    expect(fieldError(await render('de'), 'position')).toBe('Die Position darf keine NUL-Zeichen enthalten');
  });
});

describe('the profile schema’s English (the /api answers it)', () => {
  const FIELDS = [
    ['fullName', 'Full name', 255],
    ['position', 'Position', 255],
    ['phoneNumber', 'Phone number', 50],
  ] as const;
  const messageFor = (field: string, value: unknown) => {
    const result = ProfileSchema.safeParse({ username: 'ada', email: 'ada@example.com', [field]: value });
    return result.success ? null : result.error.issues.map((issue) => issue.message).join('; ');
  };

  it.each(FIELDS)('%s: the same texts as before they were messages', (field, label, max) => {
    expect(messageFor(field, 42)).toBe(`${label} must be text`);
    expect(messageFor(field, 'x'.repeat(max + 1))).toBe(`${label} must be at most ${max} characters`);
    expect(messageFor(field, 'a\u0000b')).toBe(`${label} must not contain NUL characters`);
  });
});
