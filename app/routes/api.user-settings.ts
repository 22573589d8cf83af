// GET/PUT /api/user-settings: the signed-in user's settings record.
import { apiRoute, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { getUserSettings, updateUserSettings } from '../features/settings/user-settings.server.ts';
import { UserSettingsPatchSchema } from '../features/settings/user-settings-schema.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.signedIn, run: ({ ctx }) => getUserSettings(ctx) },
  PUT: {
    allow: allow.signedIn,
    body: UserSettingsPatchSchema,
    run: async ({ ctx, request }) => updateUserSettings(ctx, await readJson(request)),
  },
});
