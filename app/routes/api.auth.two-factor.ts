import { apiJson, readJson, apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import {
  clearChallengeCookieHeader,
  readChallengeToken,
  readSessionToken,
  requestMeta,
  sessionCookieHeader,
} from '../platform/session/session.server.ts';
import { completeTwoFactor } from '../features/auth/two-factor-challenges.server.ts';
import { TwoFactorSignInSchema } from '../features/auth/schemas.ts';
import { toPublicUser } from '../features/users/user-queries.server.ts';
import type { TwoFactorSignedInAnswer } from '../features/auth/answers.ts';
import { apiAuthFailure } from '../features/auth/api-auth-failure.server.ts';
import type { z } from 'zod';

// The second step of a sign-in: the challenge from POST /api/auth/login (in the body, or the
// cookie that call set) and a code or recovery code.
export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.public,
    body: TwoFactorSignInSchema,
    run: async ({ request, context }) => {
      try {
        const body = (await readJson(request)) as { challenge?: unknown; code?: unknown } | null;
        const challenge =
          typeof body?.challenge === 'string' ? body.challenge : await readChallengeToken(request, context);
        const signedIn = await completeTwoFactor(
          {
            db: context.db,
            meta: requestMeta(request, context),
            runtime: context.runtime,
            keys: context.config.integrations.keys,
          },
          { challenge, code: body?.code },
          await readSessionToken(request, context),
        );
        const headers = new Headers();
        headers.append('Set-Cookie', await sessionCookieHeader(context, signedIn.token, signedIn.session.rememberMe));
        headers.append('Set-Cookie', await clearChallengeCookieHeader(context));
        return apiJson(
          {
            success: true,
            user: toPublicUser(signedIn.user),
            recoveryCodesLeft: signedIn.recoveryCodesLeft,
          } satisfies z.output<typeof TwoFactorSignedInAnswer>,
          { headers },
        );
      } catch (error) {
        return apiAuthFailure(error);
      }
    },
  },
});
