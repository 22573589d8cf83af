import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimQueue, queueOwner, QueueBusyError, readStatusSnapshot, writeStatusSnapshot } from './embedded-queue.ts';

describe('embedded queue ownership', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-queue-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lets one holder at a time take the queue, and frees it on release', () => {
    const release = claimQueue(dir);
    expect(fs.readFileSync(path.join(dir, 'queue.pid'), 'utf8').trim()).toBe(String(process.pid));
    expect(() => claimQueue(dir)).toThrow(QueueBusyError);
    release();
    expect(fs.existsSync(path.join(dir, 'queue.pid'))).toBe(false);
    claimQueue(dir)();
  });

  it('sees another live process as the owner, and replaces the file of one that is gone', () => {
    // The parent process of this test runner is alive and is not us.
    fs.writeFileSync(path.join(dir, 'queue.pid'), `${process.ppid}\n`);
    expect(queueOwner(dir)).toBe(process.ppid);
    expect(() => claimQueue(dir)).toThrow(/in use by process/);

    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.writeFileSync(path.join(dir, 'queue.pid'), `${gone}\n`);
    expect(queueOwner(dir)).toBeNull();
    const release = claimQueue(dir);
    expect(queueOwner(dir)).toBeNull(); // held by this process
    release();
  });

  it('writes status snapshots atomically', () => {
    expect(readStatusSnapshot(dir)).toBeNull();
    writeStatusSnapshot(dir, { mode: 'embedded', queues: [], failed: [], schedules: [] });
    expect(readStatusSnapshot(dir)).toMatchObject({
      mode: 'embedded',
      pid: process.pid,
      writtenAt: expect.any(String),
    });
    expect(fs.readdirSync(dir)).toEqual(['queue-status.json']);
  });
});
