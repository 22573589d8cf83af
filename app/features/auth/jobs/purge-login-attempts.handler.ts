import { purgeLoginAttemptsJob } from './purge-login-attempts.ts';
import { purgeLoginAttempts } from '../../../platform/http/throttle.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(purgeLoginAttemptsJob, (payload, ctx) => purgeLoginAttempts(ctx, payload));
