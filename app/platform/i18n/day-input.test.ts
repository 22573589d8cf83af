import { describe, expect, it } from 'vitest';
import { parseDayInput, readTypedDays } from './day-input.ts';
import { recordSchema } from '../resources/schema.ts';
import type { FieldDef } from '../resources/define.ts';

describe('parseDayInput', () => {
  it('reads day and month in the order of the reader’s format', () => {
    expect(parseDayInput('12/31/2026', 'MM/dd/yyyy')).toBe('2026-12-31');
    expect(parseDayInput('31/12/2026', 'dd/MM/yyyy')).toBe('2026-12-31');
    expect(parseDayInput('04/01/2031', 'MM/dd/yyyy')).toBe('2031-04-01');
    expect(parseDayInput('04/01/2031', 'dd/MM/yyyy')).toBe('2031-01-04');
  });

  it('takes one-digit parts, dots and dashes, and spaces around', () => {
    expect(parseDayInput(' 1.2.2027 ', 'dd/MM/yyyy')).toBe('2027-02-01');
    expect(parseDayInput('2-1-2027', 'MM/dd/yyyy')).toBe('2027-02-01');
  });

  it('always takes the ISO form', () => {
    for (const format of ['MM/dd/yyyy', 'dd/MM/yyyy', 'yyyy-MM-dd'] as const)
      expect(parseDayInput('2026-02-28', format)).toBe('2026-02-28');
  });

  it('refuses days that are not on the calendar, and other orders', () => {
    expect(parseDayInput('31/12/2026', 'MM/dd/yyyy')).toBeUndefined();
    expect(parseDayInput('02/29/2027', 'MM/dd/yyyy')).toBeUndefined();
    expect(parseDayInput('29/02/2028', 'dd/MM/yyyy')).toBe('2028-02-29');
    expect(parseDayInput('12/31/2026', 'yyyy-MM-dd')).toBeUndefined();
    expect(parseDayInput('2026-13-01', 'dd/MM/yyyy')).toBeUndefined();
    expect(parseDayInput('31/12/26', 'dd/MM/yyyy')).toBeUndefined();
    expect(parseDayInput('', 'dd/MM/yyyy')).toBeUndefined();
  });
});

describe('a form’s day field', () => {
  const day: FieldDef = { name: 'day', label: 'Day', kind: 'date', required: true } as FieldDef;
  const parse = (value: unknown, dateFormat?: 'MM/dd/yyyy' | 'dd/MM/yyyy' | 'yyyy-MM-dd') =>
    recordSchema({ fields: [day] }, {}, { form: true, dateFormat }).safeParse({ day: value });

  it('turns the reader’s format into the ISO day it stores', () => {
    expect(parse('31/12/2026', 'dd/MM/yyyy').data).toEqual({ day: '2026-12-31' });
    expect(parse('12/31/2026', 'MM/dd/yyyy').data).toEqual({ day: '2026-12-31' });
    expect(parse('2026-12-31', 'dd/MM/yyyy').data).toEqual({ day: '2026-12-31' });
  });

  it('names the reader’s format when it refuses a day, and ISO where that is the format', () => {
    expect(parse('13/13/2026', 'MM/dd/yyyy').error?.issues[0]?.message).toBe('Day must be a valid date (MM/DD/YYYY)');
    expect(parse('12/31/2026', 'dd/MM/yyyy').error?.issues[0]?.message).toBe('Day must be a valid date (DD/MM/YYYY)');
    expect(parse('31/12/2026', 'yyyy-MM-dd').error?.issues[0]?.message).toBe('Day must be a valid date (YYYY-MM-DD)');
    expect(parse('', 'dd/MM/yyyy').error?.issues[0]?.message).toBe('Day is required');
  });

  it('takes only ISO days where no reader’s format is given (the API)', () => {
    expect(parse('31/12/2026').error?.issues[0]?.message).toBe('Day must be a valid date (YYYY-MM-DD)');
    expect(recordSchema({ fields: [day] }).safeParse({ day: '12/31/2026' }).success).toBe(false);
  });
});

describe('readTypedDays', () => {
  const t = (message: string, values?: Record<string, unknown>) =>
    message.replace(/\{(\w+)\}/g, (_, name: string) => String(values?.[name] ?? ''));

  it('reads every typed day as ISO, an empty one as none', () => {
    expect(
      readTypedDays(t, 'dd/MM/yyyy', { from: { label: 'From', text: '31/12/2026' }, to: { label: 'To', text: '' } }),
    ).toEqual({ days: { from: '2026-12-31', to: '' }, error: null });
  });

  it('refuses the first day it cannot read, naming the reader’s format', () => {
    const { error } = readTypedDays(t, 'MM/dd/yyyy', {
      from: { label: 'From', text: '2026-01-01' },
      to: { label: 'To', text: '31/12/2026' },
    });
    expect(error).toBe('To must be a valid date (MM/DD/YYYY)');
  });
});
