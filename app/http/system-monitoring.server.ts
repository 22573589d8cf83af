// What the System Monitoring screen and its /api calls hand the service: where to measure the
// disk, how long to sample the CPU, and this web process's traffic figures.
import type { AppLoadContext } from '@remix-run/node';
import type { ApiFigures } from '../services/system-monitoring.server.ts';

/** The live CPU sample of a health call (the minute snapshots sample longer). */
export const LIVE_SAMPLE_MS = 100;
/** Requests per minute, error rate and answer time over this many minutes. */
export const TRAFFIC_WINDOW_MINUTES = 15;

export function healthOptions(context: AppLoadContext): { dataDir: string; sampleMs: number; api: ApiFigures | null } {
  return { dataDir: context.config.dataDir, sampleMs: LIVE_SAMPLE_MS, api: context.requestMetrics?.summary(TRAFFIC_WINDOW_MINUTES) ?? null };
}
