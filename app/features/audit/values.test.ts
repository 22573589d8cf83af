import { describe, expect, it } from 'vitest';
import { tableLabel } from './values.ts';

describe('tableLabel', () => {
  it('names a resource table as the table filter does, any other table as words', () => {
    expect(tableLabel('budgets')).toBe('Budgets');
    expect(tableLabel('user_settings')).toBe('User Settings');
    expect(tableLabel('api_integration_sources')).toBe('API Integration Sources');
  });
});
