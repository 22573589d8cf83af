// What one job file declares (graphile-worker style): name, payload schema, queue options,
// optional cron, and a handler that is a plain function over services.
import type { z } from 'zod';
import type { ServiceContext } from '../app/services/context.ts';

export interface JobContext extends ServiceContext {
  /** DATA_DIR (disk figures, files the job may write). */
  dataDir: string;
  /** pg-boss job id and attempt, for logs and idempotency keys. */
  job: { id: string; name: string; retryCount: number };
  log: (message: string) => void;
}

export interface JobQueueOptions {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  /** pg-boss queue policy; schedules use 'singleton' so a run never overlaps the previous one. */
  policy?: 'standard' | 'singleton' | 'stately';
}

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  payload: S;
  queue: JobQueueOptions;
  /** Cron expression (UTC) when the job is scheduled. */
  cron?: string;
  handler: (payload: z.output<S>, ctx: JobContext) => Promise<unknown>;
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}
