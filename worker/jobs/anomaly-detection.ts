import { anomalyDetectionJob } from '../../app/jobs/anomaly-detection.ts';
import { detectDeleteAnomalies } from '../../app/services/anomalies.server.ts';
import { handleJob } from '../define.ts';

export default handleJob(anomalyDetectionJob, (payload, ctx) => detectDeleteAnomalies(ctx, payload));
