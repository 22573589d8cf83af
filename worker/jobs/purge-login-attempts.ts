import { purgeLoginAttemptsJob } from '../../app/jobs/purge-login-attempts.ts';
import { purgeLoginAttempts } from '../../app/services/throttle.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(purgeLoginAttemptsJob, (payload, ctx) => purgeLoginAttempts(ctx, payload));
