// Files the app writes are private (docs/security.md), checked on the real entry points started as
// child processes from a usual shell umask (022): the web server in a fresh DATA_DIR (SQLite
// file and WAL, generated secrets, the embedded job queue's PGlite files) and the CLI leave
// DATA_DIR 0700 and everything in it 0700/0600; started on a DATA_DIR an older version left
// open, the server names what is open and how to fix it. On PostgreSQL the worker (`npm run
// worker`) does the same for what it writes: a backup in a BACKUP_DIR it creates, and a file
// a job writes with a library's default modes in folders it creates.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPreparedDatabase, type TestDatabase } from './database.ts';
import { JobEngine } from '../app/platform/jobs/engine.ts';
import { JOBS } from '../app/features/jobs.ts';
import { dropSchema, waitFor } from '../worker/test-helpers.ts';
import testJobs from '../worker/test-jobs.ts';
import { NODE, spawnServer } from './server-process.ts';

const root = path.resolve(import.meta.dirname, '..');

/** Every path under dir (dir included) with its permission bits, as 'relative path: mode'. */
function modes(dir: string): string[] {
  const out: string[] = [];
  const visit = (target: string) => {
    const stat = fs.lstatSync(target);
    out.push(
      `${path.relative(dir, target) || '.'}${stat.isDirectory() ? '/' : ''}: ${(stat.mode & 0o777).toString(8)}`,
    );
    if (stat.isDirectory()) for (const name of fs.readdirSync(target)) visit(path.join(target, name));
  };
  visit(dir);
  return out;
}
const wider = (dir: string) => modes(dir).filter((line) => !/: (600|700)$/.test(line));

function env(dataDir: string): NodeJS.ProcessEnv {
  const { DATABASE_URL: _, TEST_DATABASE_URL: __, ...rest } = process.env;
  return {
    ...rest,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: '0',
    OWNER_PASSWORD: 'Owner-Password-1',
  };
}

describe('file modes of what the app writes', () => {
  let base: string;
  let umask: number;
  let server: ChildProcess | null = null;
  beforeAll(() => {
    umask = process.umask(0o022);
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-files-'));
  });
  afterEach(async () => {
    if (server && server.exitCode === null) {
      // Its DATA_DIR is thrown away: no need to wait for a graceful stop.
      server.kill('SIGKILL');
      await new Promise((resolve) => server!.once('exit', resolve));
    }
    server = null;
  });
  afterAll(() => {
    process.umask(umask);
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** Starts server.ts; resolves with its output once it listens (and the job queue runs). */
  async function startServer(dataDir: string, extra: Record<string, string> = {}): Promise<{ output: () => string }> {
    const started = await spawnServer({ ...env(dataDir), ...extra });
    server = started.child;
    return { output: started.output };
  }

  it(
    'the web server in a fresh DATA_DIR: the directory 0700, the database, its WAL, the secrets and the job queue 0600/0700',
    { timeout: 90_000 },
    async () => {
      const dataDir = path.join(base, 'fresh');
      const { output } = await startServer(dataDir);
      const listed = modes(dataDir);
      expect(listed).toEqual(
        expect.arrayContaining(['./: 700', 'finhub.db: 600', 'finhub.db-wal: 600', 'secrets.json: 600', 'queue/: 700']),
      );
      expect(listed.filter((line) => line.startsWith('queue/')).length).toBeGreaterThan(100);
      expect(wider(dataDir)).toEqual([]);
      expect(output()).not.toContain('open to other users');
    },
  );

  it(
    'the web server on a DATA_DIR left open by an older version names what is open and how to fix it',
    { timeout: 90_000 },
    async () => {
      const dataDir = path.join(base, 'older');
      fs.mkdirSync(dataDir);
      fs.chmodSync(dataDir, 0o755);
      fs.writeFileSync(path.join(dataDir, 'notes.txt'), 'kept by an admin');
      fs.chmodSync(path.join(dataDir, 'notes.txt'), 0o644);
      const { output } = await startServer(dataDir, { EMBEDDED_JOBS: '0' });
      const text = output();
      expect(text).toContain('these 2 paths under DATA_DIR or BACKUP_DIR are open to other users of this machine');
      expect(text).toContain(`0755 directory ${dataDir}`);
      expect(text).toContain(`0644 file      ${path.join(dataDir, 'notes.txt')}`);
      expect(text).toContain(`Fix: chmod -R go-rwx ${dataDir}`);
      // What the server wrote itself there is private all the same.
      expect(wider(dataDir)).toEqual(['./: 755', 'notes.txt: 644']);
    },
  );

  it('the CLI in a fresh DATA_DIR: 0700 and 0600', { timeout: 60_000 }, () => {
    const dataDir = path.join(base, 'cli');
    const result = spawnSync(NODE, ['bin/finhub.mjs', 'db', 'migrate'], {
      cwd: root,
      env: env(dataDir),
      encoding: 'utf8',
    });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(modes(dataDir)).toEqual(expect.arrayContaining(['./: 700', 'finhub.db: 600', 'secrets.json: 600']));
    expect(wider(dataDir)).toEqual([]);
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('file modes of what the worker writes (PostgreSQL)', () => {
  let base: string;
  let umask: number;
  let database: TestDatabase;
  let sender: JobEngine;
  let worker: ChildProcess | null = null;
  const schema = `pgboss_test_${crypto.randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    umask = process.umask(0o022);
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'finhub-files-worker-'));
    database = await createPreparedDatabase('postgres');
    sender = new JobEngine({
      role: 'sender',
      db: database.db,
      databaseUrl: process.env.TEST_DATABASE_URL,
      schema,
      jobs: [...JOBS, ...testJobs],
      log: () => {},
    });
    await sender.start();
  }, 60_000);
  afterAll(async () => {
    if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    await sender?.stop({ graceful: false });
    await dropSchema(schema);
    await database?.destroy();
    process.umask(umask);
    fs.rmSync(base, { recursive: true, force: true });
  });

  it(
    "the worker in a fresh DATA_DIR and BACKUP_DIR: a backup and a job's own file and folders 0600/0700",
    { timeout: 90_000 },
    async () => {
      const dataDir = path.join(base, 'data');
      const backupRoot = path.join(base, 'backups');
      const { DATABASE_URL: _, TEST_DATABASE_URL: __, BACKUP_DIR: ___, ...rest } = process.env;
      let output = '';
      const child = spawn(NODE, ['worker/test-worker.ts'], {
        cwd: root,
        env: {
          ...rest,
          NODE_ENV: 'test',
          DATABASE_URL: database.url,
          DATA_DIR: dataDir,
          BACKUP_DIR: path.join(backupRoot, 'nightly'),
          PGBOSS_SCHEMA: schema,
          WORKER_SCHEDULES: '0',
          WORKER_POLLING_SECONDS: '0.5',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      worker = child;
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.stdout!.on('data', (chunk) => (output += chunk));
      child.stderr!.on('data', (chunk) => (output += chunk));
      await waitFor(() => output.includes('[worker] ready') || child.exitCode !== null, 'the worker to start', 60_000);
      expect(output).toContain('[worker] ready');

      await sender.send('backup-scheduled', {});
      const file = path.join(dataDir, 'exports', '2026', 'out.txt');
      await sender.send('test-write', { file });
      const backup = await waitFor(
        async () => {
          const row = await database.db
            .selectFrom('backups')
            .select(['status', 'error'])
            .where('type', '=', 'scheduled')
            .executeTakeFirst();
          return row && row.status !== 'in_progress' ? row : null;
        },
        `the worker to write the backup:\n${output}`,
        60_000,
      );
      expect(backup).toMatchObject({ status: 'completed', error: null });
      await waitFor(() => fs.existsSync(file), 'the worker to write the test file');
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);

      expect(modes(dataDir)).toEqual(
        expect.arrayContaining(['./: 700', 'exports/: 700', 'exports/2026/: 700', 'exports/2026/out.txt: 600']),
      );
      expect(wider(dataDir)).toEqual([]);
      const backups = modes(backupRoot);
      expect(backups).toEqual(expect.arrayContaining(['./: 700', 'nightly/: 700']));
      expect(backups.filter((line) => /^nightly\/[^/]+\.gz: 600$/.test(line))).toHaveLength(1);
      expect(wider(backupRoot)).toEqual([]);
      expect(output).not.toContain('open to other users');
    },
  );
});
