import { describe, expect, it } from 'vitest';
import { AUDIT_FIELD_LABELS, tableLabel } from './values.ts';
import { wordsLabel } from '../../platform/lib/labels.ts';
import { PERMISSION_FLAGS } from '../../platform/lib/permissions.ts';

describe('tableLabel', () => {
  it('names a resource table as the table filter does, any other table as words', () => {
    expect(tableLabel('budgets')).toBe('Budgets');
    expect(tableLabel('user_settings')).toBe('User Settings');
    expect(tableLabel('api_integration_sources')).toBe('API Integration Sources');
  });
});

describe('AUDIT_FIELD_LABELS', () => {
  it("has a message for each of a user's permission flags, as the trail names the column", () => {
    for (const flag of PERMISSION_FLAGS) expect(AUDIT_FIELD_LABELS, flag).toContain(wordsLabel(flag));
  });
});
