// What a job is, as services and the worker both see it: name, payload schema, queue options
// and optional cron. No handler here: handlers live in the worker (they need the worker's
// context), so services can enqueue a job without importing the worker.
import type { z } from 'zod';

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
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}
