// GET /api/editor/activities?limit: the caller's latest writes (50, at most 100).
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { ActivitiesQuery, myActivities } from '../features/dashboards/editor-dashboard.server.ts';
import { fieldErrorsFromZod, invalid } from '../platform/errors.ts';

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
