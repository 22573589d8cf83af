// The README's crontab lines: cron mails whatever a job writes on stderr to its owner, so the
// documented lines start the bin itself with the project's Node first on PATH (npx would check
// the system Node against the project's engines and warn on every run), and such a start writes
// nothing on stderr.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
/** A crontab entry: five schedule fields, then the command. */
const CRON_ENTRY = /^\s*(?:[\d*/,-]+\s+){5}(.+)$/;

describe('the README’s cron lines', () => {
  const entries = fs
    .readFileSync(path.join(root, 'README.md'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/^#\s*crontab:.*$/, ''))
    .map((line) => CRON_ENTRY.exec(line)?.[1])
    .filter((command): command is string => command !== undefined && command.includes('finhub'));

  it('start the bin with the project’s Node first on PATH, never through npx', () => {
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const command of entries) {
      expect(command, command).not.toMatch(/\bnpx\b/);
      expect(command, command).toMatch(/PATH=\S*node_modules\/\.bin:\$PATH\b.*bin\/finhub\.mjs/);
    }
  });

  it('a start that way writes nothing on stderr, whatever Node the system has', () => {
    const run = spawnSync('/bin/sh', ['-c', 'PATH=node_modules/.bin:$PATH bin/finhub.mjs --version'], {
      cwd: root,
      env: { NODE_ENV: process.env.NODE_ENV, PATH: '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(run.stderr).toBe('');
  });
});
