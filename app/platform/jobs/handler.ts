// What the worker adds to a job definition (app/jobs/): the context a handler runs in and the
// handler itself, a thin adapter that calls a service.
import type { z } from 'zod';
import type { JobDefinition } from './define.ts';
import type { ServiceContext } from '../context.ts';
import type { BackupSettings, IntegrationSettings, OpenAiSettings, PushSettings } from '../config.server.ts';

export interface JobContext extends ServiceContext {
  /** DATA_DIR (disk figures, files the job may write). */
  dataDir: string;
  /** Backup directory and retention (the process's configuration). */
  backups: BackupSettings;
  /** VAPID keys and the outbound-target policy for Web Push. */
  push: PushSettings;
  /** Credential keys and outbound limits of integration syncs. */
  integrations: IntegrationSettings;
  /** The language model for narrated insights; null: offline. */
  openai: OpenAiSettings | null;
  /** pg-boss job id and attempt, for logs and idempotency keys. */
  job: { id: string; name: string; retryCount: number };
  log: (message: string) => void;
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
