// GET/PUT /api/user-settings (spec 1 §7): the signed-in user's settings record.
import { apiRoute, readJson } from '../http/api.server.ts';
import { getUserSettings, updateUserSettings } from '../services/user-settings.server.ts';

export const { loader, action } = apiRoute({
  GET: ({ ctx }) => getUserSettings(ctx),
  PUT: async ({ ctx, request }) => updateUserSettings(ctx, await readJson(request)),
});
