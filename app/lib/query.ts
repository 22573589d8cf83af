// Zod pieces for URL query parameters (the API's list and filter parameters): an empty value is
// "not given", numbers are whole digits, days are YYYY-MM-DD. Isomorphic.
import { z } from 'zod';
import { isIsoDay } from './dates.ts';

/** Ids are 32-bit integers in the database: a larger one cannot exist (and must not reach SQL). */
export const MAX_ID = 2_147_483_647;

/** '' and null mean "not given". */
export const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

function toInteger(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** A whole number from `min` (to `max`), as digits or a number; optional. */
export function integerParam(name: string, min: number, max?: number) {
  const message = max === undefined ? `${name} must be an integer of at least ${min}` : `${name} must be an integer from ${min} to ${max}`;
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

/** The only spelling of an id: plain digits, no sign, no leading zero, no space, no exponent or hex. */
const PLAIN_ID = /^[1-9][0-9]*$/;

/**
 * A positive id from a screen's URL parameter or form field (hand-edited nonsense such as
 * '1e3', '0x3e9' or ' 1001 ' is simply absent): plain digits within MAX_ID, else null.
 */
export function positiveIdParam(value: string | null | undefined): number | null {
  if (typeof value !== 'string' || !PLAIN_ID.test(value)) return null;
  const n = Number(value);
  return n <= MAX_ID ? n : null;
}
