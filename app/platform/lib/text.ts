// Free text people submit. PostgreSQL text cannot hold a NUL character (the insert fails: a
// 500), SQLite would store it silently: both refuse it at validation, alike.

/** True when the text has no NUL character. */
export const hasNoNul = (value: string | null | undefined) => value == null || !value.includes('\u0000');

/** A search or filter value without its NUL characters (they can match nothing). */
export const withoutNul = <T extends string | null>(value: T): T =>
  value === null ? value : (value.replaceAll('\u0000', '') as T);
