// GET /api/dashboard: the dashboard object ({ userAccess }) and every figure the
// dashboard shows, each null when the caller may not see it.
import { apiRoute } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { getDashboard } from '../features/dashboards/dashboard.server.ts';
import { healthOptions } from '../features/system/health-options.server.ts';

export const { loader, action, access } = apiRoute({
  GET: { allow: allow.signedIn, run: async ({ context, ctx }) => getDashboard(ctx, healthOptions(context)) },
});
