// Running `finhub` in tests: in process (`runCli` with an injected environment and captured
// output, not a terminal) or as the real bin in a subprocess, against a test database.
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli } from './main.ts';

export const BIN = fileURLToPath(new URL('../bin/finhub.mjs', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Where a test database is: DATA_DIR, and DATABASE_URL for PostgreSQL. */
export interface CliDatabase {
  dataDir: string;
  url?: string;
}

/** What a command needs to reach the test database: DATA_DIR, and DATABASE_URL for PostgreSQL. */
export function cliEnv(database: CliDatabase, env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    DATA_DIR: database.dataDir,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
}

export class Capture extends Writable {
  text = '';
  constructor() {
    super({ decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: () => void) {
    this.text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    callback();
  }
}

/** The program in this process: not a terminal, the given environment, output captured. */
export async function finhub(database: CliDatabase, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { env: cliEnv(database, env), stdout, stderr, stdin: { isTTY: false } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The real bin (process.execPath + bin/finhub.mjs) as a subprocess. */
export function finhubProcess(database: CliDatabase, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...cliEnv(database, env) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
