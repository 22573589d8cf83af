// What the HTTP server hands every loader and action (see server.ts).
import type { AppConfig } from '../config.server.ts';
import type { Db } from '../context.ts';
import type { HealthSource } from './health-sampler.server.ts';
import type { DialectName } from '../../../db/dialect.ts';
import type { RequestMetrics } from './request-metrics.ts';
import type { Runtime } from '../runtime.ts';

export interface AppContext {
  db: Db;
  dialect: DialectName;
  config: AppConfig;
  /** The process's job queue and outbound limiter (built once by server.ts). */
  runtime: Runtime;
  /** CSP nonce of this response. */
  nonce: string;
  /** Client address (X-Forwarded-For only when TRUST_PROXY is on). */
  clientIp: string;
  /** True when the request reached us over HTTPS (cookies get Secure). */
  secure: boolean;
  /** Per-request memo (the resolved session), shared by the loaders of one request. */
  memo: Map<string, unknown>;
  /** This process's traffic figures (System Monitoring). */
  requestMetrics: RequestMetrics;
  /** This process's background health samples (System Monitoring). */
  health: HealthSource;
}

declare module '@remix-run/node' {
  // Declaration merging: Remix's (empty) AppLoadContext becomes ours.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppContext {}
}
