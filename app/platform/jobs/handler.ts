// What the engine adds to a job definition: the context a handler runs in, the handler itself (a
// thin adapter that calls a service), and what the app does around the handlers (JobHooks). The
// app's jobs are assembled in one place, app/features/jobs.ts, and given to the engine.
import type { z } from 'zod';
import type { JobDefinition } from './define.ts';
import type { ServiceContext } from '../context.ts';
import type { AppConfig } from '../config.server.ts';

/** The part of the configuration handlers run with (an AppConfig is one). */
export type JobSettings = Pick<
  AppConfig,
  'dataDir' | 'backups' | 'push' | 'integrations' | 'openai' | 'auditRetentionDays'
>;

export interface JobContext extends ServiceContext {
  /** DATA_DIR (disk figures, files the job may write). */
  dataDir: string;
  /** Backup directory and retention (the process's configuration). */
  backups: JobSettings['backups'];
  /** VAPID keys and the outbound-target policy for Web Push. */
  push: JobSettings['push'];
  /** Credential keys and outbound limits of integration syncs. */
  integrations: JobSettings['integrations'];
  /** The language model for narrated insights; null: offline. */
  openai: JobSettings['openai'];
  /** Days the audit trail is kept (`AUDIT_RETENTION_DAYS`); null: forever. */
  auditRetentionDays: JobSettings['auditRetentionDays'];
  /** pg-boss job id and attempt, for logs and idempotency keys. */
  job: { id: string; name: string; retryCount: number };
  log: (message: string) => void;
}

/** The settings part of a job context, picked from the configuration (not the whole of it). */
export function jobSettingsOf(settings: JobSettings): JobSettings {
  const { dataDir, backups, push, integrations, openai, auditRetentionDays } = settings;
  return { dataDir, backups, push, integrations, openai, auditRetentionDays };
}

/** Runs one job; safe to run twice for the same payload (at-least-once delivery). */
export type JobHandler<S extends z.ZodType = z.ZodType> = (payload: z.output<S>, ctx: JobContext) => Promise<unknown>;

/** A job definition paired with its handler: what the engine works and `finhub jobs run` runs. */
export interface WorkerJob<S extends z.ZodType = z.ZodType> extends JobDefinition<S> {
  handler: JobHandler<S>;
}

export function handleJob<S extends z.ZodType>(definition: JobDefinition<S>, handler: JobHandler<S>): WorkerJob<S> {
  return { ...definition, handler };
}

/** A job that used up its retries, as the dead-letter queue received it. */
export interface DeadLetter {
  /** The job's name (its queue). */
  name: string;
  /** The failed job's id, when pg-boss passed it on. */
  jobId: string | null;
  /** The id of the dead-letter queue's copy. */
  deadLetterJobId: string;
  /** The last attempt's error message. */
  message: string;
  stack: string | null;
  payload: unknown;
}

/** What the app does around the handlers of an engine that works jobs. */
export interface JobHooks {
  /**
   * Before any handler runs: marks what a crashed run left half done as failed, and says how
   * many. `olderThan`: only what was left untouched since (other live workers may own the rest).
   */
  recoverInterrupted(
    ctx: Pick<ServiceContext, 'db' | 'runtime'>,
    settings: JobSettings,
    olderThan: Date | undefined,
  ): Promise<number>;
  /** A job whose retries are exhausted (recorded, and the admins told). */
  deadLettered(ctx: ServiceContext, failure: DeadLetter): Promise<void>;
}

/** The app's jobs as a process runs or sends them: the jobs with their handlers, and the hooks. */
export interface JobSet {
  jobs: readonly WorkerJob[];
  hooks: JobHooks;
}
