// GET /api/api-activity-timeline: computed from the sync logs, endpoints and audit trail (integration-analysis.server.ts).
import { apiRoute } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { activityTimeline } from '../services/integration-analysis.server.ts';

export const { loader, action, access } = apiRoute({ GET: { allow: allow.to('integrations'), run: async ({ ctx }) => activityTimeline(ctx) } });
