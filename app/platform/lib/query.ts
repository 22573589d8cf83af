// URL query parameters: the largest id, "not given", and a screen's id parameter. Isomorphic and
// free of zod (screens import it): the zod pieces of the API's list and filter parameters are in
// query-params.ts.

/** Ids are 32-bit integers in the database: a larger one cannot exist (and must not reach SQL). */
export const MAX_ID = 2_147_483_647;

/** '' and null mean "not given". */
export const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

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
