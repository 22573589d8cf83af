import { expect, it } from 'vitest';
import { pgInstantToIso } from './pg-instant.ts';

it('gives what Date gives for every shape PostgreSQL sends', () => {
  const samples = [
    '2026-11-27 23:20:27.474+00',
    '2026-11-27 23:20:27+00',
    '2026-11-27 23:20:27.4+00',
    '2026-11-27 23:20:27.47+00',
    '2026-11-27 23:20:27.474999+00',
    '2026-11-27 23:20:27.999999+00',
    '2024-02-29 00:00:00.000001+00',
    '1970-01-01 00:00:00+00',
    // Not the fast path: other offsets, and years Date reads its own way.
    '2026-11-27 23:20:27.474+02',
    '2026-11-27 23:20:27.474-05:30',
    '0099-01-01 00:00:00+00',
  ];
  for (let i = 0; i < 500; i++) {
    const ms = Math.floor(Math.random() * 4_102_444_800_000);
    const micros = String(Math.floor(Math.random() * 1_000_000))
      .padStart(6, '0')
      .replace(/0+$/, '');
    samples.push(`${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}${micros ? `.${micros}` : ''}+00`);
  }
  for (const text of samples) expect(pgInstantToIso(text), text).toBe(new Date(text).toISOString());
});
