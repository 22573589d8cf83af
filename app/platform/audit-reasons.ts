// The reasons the product writes into the audit trail (docs/languages.md). They are stored in
// English, which the /api answers; a screen reads one back into its message and values and shows
// it in the reader's language. A reason somebody typed is shown as it was written. Isomorphic.
import { msg, type Translate } from './i18n/messages.ts';
import { english } from './i18n/refusal-words.ts';

export const REASONS = {
  userUpdated: msg('User updated'),
  permissionsUpdated: msg('Permissions updated'),
  temporaryPassword: msg('Temporary password created'),
  userDeleted: msg('User deleted'),
  signedOut: msg('Signed out'),
  wrongTwoFactorCode: msg('Wrong two-factor code'),
  defaultSettings: msg('Default settings created'),
  settingsUpdated: msg('Settings updated'),
  profileUpdated: msg('Profile updated'),
  integrationSync: msg('API integration sync'),
  firstOwner: msg('Initial owner account created at first start'),
  errorResolved: msg('Error resolved'),
  restoredVersion: msg('Restored version {version}'),
  csvImport: msg('CSV import #{id}: {file}'),
} as const;

/** A reason with values, in English: what is stored. */
export function reasonWith(message: string, values: Record<string, string | number>): string {
  return english(message, values);
}

const escaped = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** The reasons with values, each with a pattern that reads its English back into the values. */
const PATTERNS = Object.values(REASONS)
  .filter((message) => message.includes('{'))
  .map((message) => {
    const names: string[] = [];
    const source = escaped(message).replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '(.+?)';
    });
    return { message, names, pattern: new RegExp(`^${source}$`, 's') };
  });

const FIXED = new Set<string>(Object.values(REASONS).filter((message) => !message.includes('{')));

/** A stored reason in the reader's words: the product's own translated, any other as written. */
export function reasonText(reason: string, t: Translate): string {
  if (FIXED.has(reason)) return t(reason);
  for (const { message, names, pattern } of PATTERNS) {
    const found = pattern.exec(reason);
    if (found) return t(message, Object.fromEntries(names.map((name, i) => [name, found[i + 1]])));
  }
  return reason;
}

/** Whether a stored reason is one the product wrote (a screen shows the others as data). */
export function isProductReason(reason: string): boolean {
  return FIXED.has(reason) || PATTERNS.some(({ pattern }) => pattern.test(reason));
}
