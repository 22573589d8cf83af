// GET /api/system/health (owners and admins): the figures measured
// now, the app's traffic over the last 15 minutes and 24 hours of snapshot averages.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { healthOptions } from '../features/system/health-options.server.ts';
import { systemHealth } from '../features/system/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.to('installation'), run: async ({ context, ctx }) => systemHealth(ctx, healthOptions(context)) },
});
