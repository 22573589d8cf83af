import type { z } from 'zod';

/** The rejection of a promise; fails the test when the promise resolves instead. */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Fails the test, with zod's issues, when `value` as JSON (what the API sends) is not an answer of `schema`. */
export function expectAnswer(schema: z.ZodType, value: unknown): void {
  const { error } = schema.safeParse(JSON.parse(JSON.stringify(value)));
  if (error) throw new Error(`not an answer of its schema: ${String(error)}`);
}
