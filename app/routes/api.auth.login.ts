import { apiJson, readJson, apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { readSessionToken, requestMeta, sessionCookieHeader } from '../platform/session/session.server.ts';
import { login } from '../features/auth/auth.server.ts';
import { isDomainError } from '../platform/errors.ts';
import { LoginSchema } from '../features/auth/schemas.ts';
import { toPublicUser } from '../features/users/user-queries.server.ts';
import type { LoginResult } from '../features/auth/answers.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.public,
    body: LoginSchema,
    run: async ({ request, context }) => {
      try {
        const body = await readJson(request);
        const { user, token, session } = await login(
          context.db,
          requestMeta(request, context),
          body,
          await readSessionToken(request, context),
        );
        return apiJson({ success: true, user: toPublicUser(user) } satisfies LoginResult, {
          headers: { 'Set-Cookie': await sessionCookieHeader(context, token, session.rememberMe) },
        });
      } catch (error) {
        if (!isDomainError(error)) throw error;
        // The old client reads { success, error }; the API's error shape adds { message, errors } (docs/api.md).
        const headers: Record<string, string> = error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : {};
        return apiJson(
          {
            success: false,
            error: error.message,
            message: error.message,
            ...(error.errors ? { errors: error.errors } : {}),
          },
          { status: error.status, headers },
        );
      }
    },
  },
});
