import { healthSnapshotJob } from './health-snapshot.ts';
import { recordHealthSnapshot } from '../health.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(healthSnapshotJob, (payload, ctx) =>
  recordHealthSnapshot(ctx, { dataDir: ctx.dataDir, sampleMs: payload.sampleMs }),
);
