// The explicit list of jobs (no discovery at run time). Add a job: one file in jobs/, one line here.
import type { JobDefinition } from './define.ts';
import anomalyDetection from './jobs/anomaly-detection.ts';
import healthSnapshot from './jobs/health-snapshot.ts';
import purgeLoginAttempts from './jobs/purge-login-attempts.ts';

export const registry: JobDefinition[] = [healthSnapshot, anomalyDetection, purgeLoginAttempts] as JobDefinition[];

/** Queue that receives jobs whose retries are exhausted; its handler records a system error. */
export const DEAD_LETTER_QUEUE = 'dead-letter';

export function findJob(name: string, jobs: JobDefinition[] = registry): JobDefinition | undefined {
  return jobs.find((job) => job.name === name);
}
