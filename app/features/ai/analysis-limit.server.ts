// On-demand analyses run one at a time per user (docs/security.md), in every web process: predictions,
// budget analysis, Generate now and the chat (which reads the books through the same services,
// and may wait on a language model). Reading stored insights or anomalies is not one.
// The nightly and 15-minute jobs run as the system, one at a time by their queues' singleton keys.
import type { ServiceContext } from '../../platform/context.ts';
import { holdLease, oneAtATime, type WorkLease } from '../../platform/work-lease.server.ts';
import { msg } from '../../platform/i18n/messages.ts';

export const ANALYSIS_RUNNING = msg('An analysis is already running. Try again in a few seconds.');
const KIND = 'analysis';

/** Runs one on-demand analysis of the context's user; 429 while another of theirs runs. */
export function oneAnalysisAtATime<T>(ctx: ServiceContext, fn: () => Promise<T>): Promise<T> {
  return oneAtATime(ctx, KIND, fn, { busyMessage: ANALYSIS_RUNNING });
}

/** The same lease for an analysis answered as a stream: release it before the last event. */
export function holdAnalysisLease(ctx: ServiceContext): Promise<WorkLease> {
  return holdLease(ctx, KIND, { busyMessage: ANALYSIS_RUNNING });
}
