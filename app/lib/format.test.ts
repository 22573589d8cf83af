import { describe, expect, it } from 'vitest';
import { formatDay, formatMoney, formatNumber, truncate } from './format.ts';

describe('format', () => {
  it('shows money with a dollar sign and thousands separators', () => {
    expect(formatMoney(1234567.5)).toBe('$1,234,567.50');
    expect(formatMoney(0.01)).toBe('$0.01');
  });
  it('shows numbers with thousands separators and up to two decimals', () => {
    expect(formatNumber(2144)).toBe('2,144');
    expect(formatNumber(12.345)).toBe('12.35');
    expect(formatNumber(null)).toBe('');
  });
  it('shows calendar days without shifting them across time zones', () => {
    expect(formatDay('2026-01-01')).toBe('Jan 1, 2026');
  });
  it('truncates at the given length with an ellipsis', () => {
    expect(truncate('a'.repeat(50), 50)).toBe('a'.repeat(50));
    expect(truncate('a'.repeat(51), 50)).toBe(`${'a'.repeat(50)}...`);
    expect(truncate(null, 5)).toBe('');
  });
});
