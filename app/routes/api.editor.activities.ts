// GET /api/editor/activities?limit: the caller's latest writes (50, at most 100).
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { ActivitiesQuery, myActivities } from '../services/editor-dashboard.server.ts';
import { fieldErrorsFromZod, invalid } from '../services/errors.ts';

export const { loader, action, access } = apiRoute({
  GET: {
    allow: allow.to('financial', 'create'),
    run: async ({ request, ctx }) => {
      const parsed = ActivitiesQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
      return myActivities(ctx, parsed.data.limit ?? 50);
    },
  },
});
