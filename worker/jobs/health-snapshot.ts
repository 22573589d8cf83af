import { healthSnapshotJob } from '../../app/jobs/health-snapshot.ts';
import { recordHealthSnapshot } from '../../app/services/health.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(healthSnapshotJob, (payload, ctx) => recordHealthSnapshot(ctx, { dataDir: ctx.dataDir, sampleMs: payload.sampleMs }));
