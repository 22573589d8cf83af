// How the installation's health verdict reads, on System Monitoring and on the dashboard alike.
import type { Formats } from '../../platform/i18n/formats.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';
import type { HealthVerdict, OverallHealth } from './answers.ts';

export const HEALTH_LABELS: Record<OverallHealth, { label: string; tone: string }> = {
  healthy: { label: msg('Healthy'), tone: 'text-green-700' },
  warning: { label: msg('Warning'), tone: 'text-amber-700' },
  critical: { label: msg('Critical'), tone: 'text-red-700' },
  unknown: { label: msg('Unknown'), tone: 'text-slate-700' },
};

/** What a figure over its threshold reads: the /api's reasons in English, the screens' in the reader's words. */
export const HEALTH_REASONS = {
  cpu: msg('CPU at {value}%'),
  memory: msg('Memory at {value}%'),
  disk: msg('Disk at {value}%'),
  database: msg('Database answered in {value} ms'),
  errorRate: msg('{value}% of requests failed'),
} as const;

/** A reason as the verdict states it: English, the figure as measured. */
export function healthReason(figure: keyof typeof HEALTH_REASONS, value: number | null | undefined): string {
  return HEALTH_REASONS[figure].replace('{value}', String(value));
}

/** A reason of the verdict in the reader's words; one this file does not know stays as it is. */
function readReason(reason: string, formats: Formats, t: Translate): string {
  for (const message of Object.values(HEALTH_REASONS)) {
    const [before = '', after = ''] = message.split('{value}');
    if (!reason.startsWith(before) || !reason.endsWith(after)) continue;
    const value = Number(reason.slice(before.length, reason.length - after.length));
    if (Number.isFinite(value)) return t(message, { value: formats.number(value) });
  }
  return reason;
}

/** The line under the verdict: what is over its threshold, else when the figures were measured. */
export function healthDetail(
  verdict: Pick<HealthVerdict, 'timestamp' | 'reasons'>,
  formats: Formats,
  t: Translate,
): string {
  return verdict.reasons.length
    ? verdict.reasons.map((reason) => readReason(reason, formats, t)).join(' · ')
    : t('Measured {time}', { time: formats.instant(verdict.timestamp) });
}
