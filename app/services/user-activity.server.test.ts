// The pure helpers behind Activity Analytics: durations, scores and levels (spec 3 §2.1, §4, §9).
import { describe, expect, it } from 'vitest';
import {
  ACTIVITY_LEVEL_THRESHOLDS, activityLevel, activityScore, MAX_ACTIVITY_SCORE, toMinutes,
} from './user-activity.server.ts';

describe('toMinutes', () => {
  it('seconds become minutes with one decimal', () => {
    expect(toMinutes(0)).toBe(0);
    expect(toMinutes(30)).toBe(0.5);
    expect(toMinutes(3600)).toBe(60);
    expect(toMinutes(100)).toBe(1.7);
  });
});

describe('activityScore', () => {
  it('is 3 per sign-in, 2 per entry and 1 per edit, capped at 100', () => {
    expect(activityScore({ logins: 0, entries: 0, edits: 0 })).toBe(0);
    expect(activityScore({ logins: 1, entries: 0, edits: 0 })).toBe(3);
    expect(activityScore({ logins: 0, entries: 1, edits: 0 })).toBe(2);
    expect(activityScore({ logins: 0, entries: 0, edits: 1 })).toBe(1);
    expect(activityScore({ logins: 3, entries: 5, edits: 4 })).toBe(23);
    expect(activityScore({ logins: 40, entries: 0, edits: 0 })).toBe(MAX_ACTIVITY_SCORE);
    expect(activityScore({ logins: 1000, entries: 1000, edits: 1000 })).toBe(100);
  });
});

describe('activityLevel', () => {
  it('high from 50, medium from 25, low from 10, else inactive', () => {
    expect(ACTIVITY_LEVEL_THRESHOLDS).toEqual({ high: 50, medium: 25, low: 10 });
    expect(activityLevel(100)).toBe('high');
    expect(activityLevel(50)).toBe('high');
    expect(activityLevel(49)).toBe('medium');
    expect(activityLevel(25)).toBe('medium');
    expect(activityLevel(24)).toBe('low');
    expect(activityLevel(10)).toBe('low');
    expect(activityLevel(9)).toBe('inactive');
    expect(activityLevel(0)).toBe('inactive');
  });
});
