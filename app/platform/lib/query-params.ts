// Zod pieces for URL query parameters (the API's list and filter parameters): an empty value is
// "not given", numbers are whole digits, days are YYYY-MM-DD. Isomorphic, but apart from query.ts:
// the browser build loads zod's whole chunk for any module that imports zod, used or not.
import { z } from 'zod';
import { isIsoDay } from './dates.ts';
import { blankToUndefined } from './query.ts';

function toInteger(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** A whole number from `min` (to `max`), as digits or a number; optional. */
export function integerParam(name: string, min: number, max?: number) {
  const message =
    max === undefined
      ? `${name} must be an integer of at least ${min}`
      : `${name} must be an integer from ${min} to ${max}`;
  return z.preprocess(
    blankToUndefined,
    z.unknown().transform((value, ctx): number | undefined => {
      if (value === undefined) return undefined;
      const n = toInteger(value);
      if (n === null || n < min || (max !== undefined && n > max)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    }),
  );
}

/** A calendar day (YYYY-MM-DD); optional. */
export function dayParam(name: string) {
  const message = `${name} must be a date (YYYY-MM-DD)`;
  return z.preprocess(blankToUndefined, z.string({ error: message }).refine(isIsoDay, message).optional());
}
