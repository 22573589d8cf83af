// PATCH /api/editor/activities/{activityId}: the row one of the caller's activities
// is about, changed with the JSON fields through that resource's own rules; the updated row.
import { apiRoute, idParam, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { ActivityPatchBody, updateActivityRecord } from '../features/users/editor-activity.server.ts';

export const { loader, action, access } = apiRoute(
  {
    PATCH: {
      allow: allow.to('financial', 'edit'),
      body: ActivityPatchBody,
      run: async ({ request, params, ctx }) => updateActivityRecord(ctx, idParam(params.id), await readJson(request)),
    },
  },
  { companyScoped: true },
);
