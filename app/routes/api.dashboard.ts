// GET /api/dashboard: the dashboard object ({ userAccess }) and every figure the
// dashboard shows, each null when the caller may not see it.
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { getDashboard } from '../services/dashboard.server.ts';
import { healthOptions } from '../http/system-monitoring.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.signedIn, run: async ({ context, ctx }) => getDashboard(ctx, healthOptions(context)) } });
