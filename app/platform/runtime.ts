// What one process builds once, at its composition root (server.ts, the worker, the CLI), and
// hands to every service call through its context: its job queue and its outbound limiter.
// Nothing here is global: a second copy of these modules (the Remix build bundles its own) sees
// the same parts because they are passed, not imported.
import { HostLimiter } from './http/host-limiter.ts';
import { ProcessJobQueue, type JobQueue } from './jobs/queue.server.ts';
import type { Locale } from './i18n/locales.ts';
import type { Translate } from './i18n/messages.ts';

export interface Runtime {
  jobs: JobQueue;
  /** Outbound calls in flight per third-party host (push services). */
  outbound: HostLimiter;
  /**
   * The message catalogs, for a text written for one reader outside a request (a notification
   * pushed to a browser). The shell's, which the areas cannot import; without it: English.
   */
  translator?: (locale: Locale) => Translate;
}

/** A process's runtime, with the queue it configures (host, sendVia, runHereWithoutEngine). */
export function createRuntime(
  jobs: ProcessJobQueue = new ProcessJobQueue(),
  parts: Pick<Runtime, 'translator'> = {},
): Runtime & { jobs: ProcessJobQueue } {
  return { jobs, outbound: new HostLimiter(), ...parts };
}
