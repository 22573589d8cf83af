// What a job is, as services and the engine both see it: name, payload schema, queue options
// and optional cron. No handler here (handler.ts pairs one with a definition), so services can
// enqueue a job without importing its handler.
import type { z } from 'zod';

export interface JobQueueOptions {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  /** How soon a job whose worker died is retried (default JOB_HEARTBEAT_SECONDS, engine.ts; at least 10). */
  heartbeatSeconds?: number;
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
  /**
   * When no engine is reachable, a process that can run jobs itself (the web server) runs this
   * one in the background, with its retries, instead of failing the enqueue.
   */
  runsHereWithoutEngine?: boolean;
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

/** Queue that receives jobs whose retries are exhausted (JobHooks.deadLettered says what follows). */
export const DEAD_LETTER_QUEUE = 'dead-letter';

export function findJob<J extends JobDefinition>(name: string, jobs: readonly J[]): J | undefined {
  return jobs.find((job) => job.name === name);
}
