// What the System Monitoring screen and its /api calls hand the service: this web process's
// background health samples and its traffic figures.
import type { AppLoadContext } from '@remix-run/node';
import type { HealthSource } from '../../platform/http/health-sampler.server.ts';
import type { ApiFigures } from './system-monitoring.server.ts';

/** Requests per minute, error rate and answer time over this many minutes. */
export const TRAFFIC_WINDOW_MINUTES = 15;

export function healthOptions(context: AppLoadContext): { health: HealthSource; api: ApiFigures | null } {
  return { health: context.health, api: context.requestMetrics?.summary(TRAFFIC_WINDOW_MINUTES) ?? null };
}
