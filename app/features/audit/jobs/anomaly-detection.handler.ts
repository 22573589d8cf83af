import { anomalyDetectionJob } from './anomaly-detection.ts';
import { detectDeleteAnomalies } from '../anomalies.server.ts';
import { handleJob } from '../../../platform/jobs/handler.ts';

export default handleJob(anomalyDetectionJob, (payload, ctx) => detectDeleteAnomalies(ctx, payload));
