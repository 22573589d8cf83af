// The documented examples are answers the schemas accept: an example is never written apart
// from the answer it illustrates.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { allOperations } from './document.server.ts';

describe('the documented examples', () => {
  it('every success example has a zod schema, and it accepts the example', () => {
    const wrong = allOperations()
      .filter((op) => op.success.example !== undefined)
      .filter(
        (op) => !(op.success.schema instanceof z.ZodType) || !op.success.schema.safeParse(op.success.example).success,
      )
      .map((op) => `${op.method} ${op.path}`);
    expect(wrong).toEqual([]);
  });
});
