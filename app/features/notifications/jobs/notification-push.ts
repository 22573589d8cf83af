// Push delivery of one notification (docs/jobs.md): finds its recipients' subscribed browsers and
// sends one push-send job to each, so a slow or failing browser never holds up the others.
// A notification stored inside a transaction may not be visible yet: the job retries, and gives
// up quietly once it can be sure the row was rolled back.
import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/define.ts';

export const notificationPushJob = defineJob({
  name: 'notification-push',
  description: "Sends a new notification to its recipients' subscribed browsers (one push-send job per browser)",
  payload: z.object({ notificationId: z.number().int().positive() }),
  queue: { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 300 },
  // A web server that reaches no engine (EMBEDDED_JOBS=0, an engine that failed to start, the
  // database down) still pushes: it sends to the browsers itself.
  runsHereWithoutEngine: true,
});
