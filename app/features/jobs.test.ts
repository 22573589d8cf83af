// The app's jobs as appJobs assembles them: one handler per job, unique names, and the crons
// the configuration sets.
import { describe, expect, it } from 'vitest';
import { appJobs, JOBS } from './jobs.ts';
import { DEFAULT_BACKUP_SCHEDULE } from '../platform/config.server.ts';

const backups = (schedule: string) => ({ backups: { dir: '/tmp/backups', schedule, keep: 14 } });

describe('the app\'s jobs', () => {
  it('have one handler each and unique names', () => {
    const { jobs } = appJobs(backups(DEFAULT_BACKUP_SCHEDULE));
    expect(new Set(jobs.map((job) => job.name)).size).toBe(jobs.length);
    expect(jobs.map((job) => job.name)).toEqual(JOBS.map((job) => job.name));
    for (const job of jobs) expect(typeof job.handler).toBe('function');
  });

  it('schedule the backup as the configuration says, the other jobs as they are defined', () => {
    const { jobs } = appJobs(backups('30 1 * * 0'));
    expect(jobs.find((job) => job.name === 'backup-scheduled')?.cron).toBe('30 1 * * 0');
    expect(JOBS.find((job) => job.name === 'backup-scheduled')?.cron).toBeUndefined();
    jobs.forEach((job, i) => {
      if (job.name !== 'backup-scheduled') expect(job).toBe(JOBS[i]);
    });
  });
});
