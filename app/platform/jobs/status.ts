// What `finhub jobs status` shows: the engine computes it, the embedded web process also writes
// it to DATA_DIR/queue-status.json for the CLI to read.

export interface QueueCounts {
  name: string;
  queued: number;
  active: number;
  deferred: number;
  failed: number;
  total: number;
}

export interface FailedJob {
  id: string;
  name: string;
  failedAt: string | null;
  retryCount: number;
  message: string;
}

/** What `finhub jobs status` shows. */
export interface JobsStatus {
  mode: 'postgres' | 'embedded';
  queues: QueueCounts[];
  /** The most recent failed attempts that used up their retries, newest first. */
  failed: FailedJob[];
  schedules: { name: string; cron: string }[];
}
