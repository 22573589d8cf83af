// The two explicit lists agree: every job declared in app/jobs has exactly one handler here,
// in the same order, carrying its definition unchanged.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../app/features/jobs.ts';
import { registry } from './registry.ts';

describe('job registry', () => {
  it('has one handler per declared job, with the declaration as it is', () => {
    expect(registry.map((job) => job.name)).toEqual(JOBS.map((job) => job.name));
    registry.forEach((job, i) => {
      const { handler, ...definition } = job;
      expect(typeof handler).toBe('function');
      expect(definition).toEqual(JOBS[i]);
      expect(definition.payload).toBe(JOBS[i].payload);
    });
  });
});
