// How the installation's health verdict reads, on System Monitoring and on the dashboard alike.
import { formatInstant } from '../../platform/lib/format.ts';
import type { HealthVerdict, OverallHealth } from './answers.ts';

export const HEALTH_LABELS: Record<OverallHealth, { label: string; tone: string }> = {
  healthy: { label: 'Healthy', tone: 'text-green-700' },
  warning: { label: 'Warning', tone: 'text-amber-700' },
  critical: { label: 'Critical', tone: 'text-red-700' },
  unknown: { label: 'Unknown', tone: 'text-slate-700' },
};

/** The line under the verdict: what is over its threshold, else when the figures were measured. */
export function healthDetail(verdict: Pick<HealthVerdict, 'timestamp' | 'reasons'>): string {
  return verdict.reasons.length ? verdict.reasons.join(' · ') : `Measured ${formatInstant(verdict.timestamp)}`;
}
