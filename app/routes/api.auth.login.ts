import { apiJson, readJson, apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import {
  challengeCookieHeader,
  readSessionToken,
  requestMeta,
  sessionCookieHeader,
} from '../platform/session/session.server.ts';
import { signIn } from '../features/auth/auth.server.ts';
import { LoginSchema } from '../features/auth/schemas.ts';
import { toPublicUser } from '../features/users/user-queries.server.ts';
import type { LoginResult, TwoFactorNeeded } from '../features/auth/answers.ts';
import { apiAuthFailure } from '../features/auth/api-auth-failure.server.ts';

export const TWO_FACTOR_NEEDED_MESSAGE = 'Enter the code from your authenticator app to finish signing in';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.public,
    body: LoginSchema,
    run: async ({ request, context }) => {
      try {
        const body = await readJson(request);
        const step = await signIn(
          context.db,
          requestMeta(request, context),
          body,
          await readSessionToken(request, context),
        );
        if (step.kind === 'twoFactor') {
          // No session yet: POST /api/auth/two-factor completes the sign-in.
          return apiJson(
            {
              success: false,
              twoFactorRequired: true,
              challenge: step.challenge,
              expiresAt: step.expiresAt,
              message: TWO_FACTOR_NEEDED_MESSAGE,
            } satisfies TwoFactorNeeded,
            { headers: { 'Set-Cookie': await challengeCookieHeader(context, step.challenge, step.expiresAt) } },
          );
        }
        return apiJson({ success: true, user: toPublicUser(step.user) } satisfies LoginResult, {
          headers: { 'Set-Cookie': await sessionCookieHeader(context, step.token, step.session.rememberMe) },
        });
      } catch (error) {
        return apiAuthFailure(error);
      }
    },
  },
});
