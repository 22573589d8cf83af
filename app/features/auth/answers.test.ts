// The signed-in user's answer is built by the users area (toPublicUser, for the session's user):
// its type agrees with the schema here, and the documentation's example passes the schema.
import type { z } from 'zod';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { SIGNED_IN_USER_EXAMPLE, SignedInUserAnswer } from './answers.ts';
import type { toPublicUser } from '../users/user-queries.server.ts';

describe('the sign-in answers', () => {
  it('the signed-in user is what toPublicUser builds', () => {
    expectTypeOf<z.output<typeof SignedInUserAnswer>>().toEqualTypeOf<ReturnType<typeof toPublicUser>>();
  });

  it('the example is a signed-in user', () => {
    expect(SignedInUserAnswer.safeParse(SIGNED_IN_USER_EXAMPLE).error).toBeUndefined();
  });
});
