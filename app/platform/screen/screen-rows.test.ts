import { describe, expect, it } from 'vitest';
import { actualExpenses } from '../../features/resources.ts';
import { unpackRows } from '../lib/packed-rows.ts';
import { screenChoices, screenRows } from './screen-rows.ts';

const row = {
  id: 7,
  companyId: 4,
  departmentId: 2,
  categoryId: 60,
  amount: 12.5,
  expenseDate: '2026-11-26',
  description: 'Dinner',
  vendor: 'Emirates',
  receiptNumber: 'INV-1',
  departmentName: 'Sales',
  categoryName: 'Travel',
  companyName: 'Spark',
  companyType: 'marketing',
  createdBy: null,
  createdAt: '2026-11-26T01:00:00.000Z',
  updatedAt: '2026-11-26T01:00:00.000Z',
};

describe('screenRows', () => {
  it('keeps the id and the columns the table shows, nothing else', () => {
    const [kept] = unpackRows(screenRows(actualExpenses, [row]));
    const columns = actualExpenses.list.columns.map((c) => c.key);
    expect(Object.keys(kept).sort()).toEqual([...new Set(['id', ...columns])].filter((k) => k in row).sort());
    expect(kept).not.toHaveProperty('companyId');
    expect(kept).not.toHaveProperty('createdAt');
    for (const key of columns) expect(kept[key as keyof typeof kept]).toBe(row[key as keyof typeof row]);
  });

  it('keeps the fields the screen asks for and the name', () => {
    const [kept] = unpackRows(screenRows(actualExpenses, [{ ...row, name: 'Dinner' }], ['departmentId']));
    expect(kept).toMatchObject({ id: 7, name: 'Dinner', departmentId: 2 });
  });

  it('writes the keys once, and a row without a key the others have reads null', () => {
    const packed = screenRows(actualExpenses, [row, { ...row, id: 8, vendor: null }, { id: 9, amount: 1 }]);
    expect(packed.keys.filter((k) => k === 'amount')).toHaveLength(1);
    expect(packed.values).toHaveLength(3);
    const rows = unpackRows(JSON.parse(JSON.stringify(packed)));
    expect(rows.map((r) => r.id)).toEqual([7, 8, 9]);
    expect(rows[1].vendor).toBeNull();
    expect(rows[2]).toMatchObject({ amount: 1, vendor: null, description: null });
    expect(Object.keys(rows[0])).not.toContain('name');
  });
});

describe('screenChoices', () => {
  const choices = {
    filter: [{ id: 1, value: '1', label: 'Finance' }],
    departments: [{ id: 1, value: '1', label: 'Finance' }],
    categories: [{ id: 3, value: '3', label: 'Travel', group: 'Spark' }],
  };

  it('sends every list while a form is open', () => {
    expect(screenChoices(choices, true)).toBe(choices);
  });

  it('sends the filter and the lists the screen names when no form is open', () => {
    expect(screenChoices(choices, false)).toEqual({ filter: [{ value: '1', label: 'Finance' }] });
    expect(screenChoices(choices, false, ['departments'])).toEqual({
      filter: [{ value: '1', label: 'Finance' }],
      departments: choices.departments,
    });
  });
});
