// What every command shares: the database opened from the same configuration as the web app,
// the service context (actor `cli`, audited as 'cli'), output that is Ink on a terminal and
// plain text or JSON otherwise, and the mapping of errors to exit codes.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createDatabase, type DatabaseHandle } from '../db/client.ts';
import { loadConfig, type AppConfig } from '../app/platform/config.server.ts';
import { systemActor, type ServiceContext } from '../app/platform/context.ts';
import { createRuntime } from '../app/platform/runtime.ts';
import type { Cell, TableColumn, TaskHandle } from './ui.ts';

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** A mistake in how the command was called (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The command has already said what went wrong (e.g. `backups verify` printed 'invalid: …'):
 * exit code 1 without a further message.
 */
export class ReportedFailure extends Error {
  override name = 'ReportedFailure';
}

export interface GlobalOptions {
  json?: boolean;
}

export interface Output {
  /** Ink allowed: stdout is a terminal and --json is off. */
  interactive: boolean;
  json: boolean;
  /** A list: Ink table, aligned plain text, or a JSON array. */
  table(columns: TableColumn[], rows: Record<string, Cell>[], jsonRows?: unknown[]): Promise<void>;
  /** The outcome of a command: a JSON object with --json, else the lines. */
  result(data: unknown, lines: string[]): void;
  /** Progress on stderr (spinner/bar) only on a terminal; nothing otherwise. */
  task<T>(label: string, fn: (task: TaskHandle) => Promise<T>, done: (result: T) => string): Promise<T>;
  /**
   * Asks before something that cannot be undone. `yes` (the flag) skips the question; without
   * a terminal the command refuses and names the flag instead of waiting for an answer.
   */
  confirm(question: string, options: { yes?: boolean; flag?: string; refusal: string }): Promise<boolean>;
}

/**
 * What one CLI run reads and writes: its environment and standard streams. The process's own
 * in real use; the tests run the program in process (`runCli(argv, io)`) with an injected
 * environment (DATA_DIR / DATABASE_URL of a test database) and captured output.
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: { isTTY?: boolean };
}

export const processIo = (): CliIo => ({
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
});

const currentIo = new AsyncLocalStorage<CliIo>();

/** The running command's environment and streams (the process's outside `withCliIo`). */
export function cliIo(): CliIo {
  return currentIo.getStore() ?? processIo();
}

export function withCliIo<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  return currentIo.run(io, fn);
}

const quietTask: TaskHandle = { update() {} };

export function createOutput(options: GlobalOptions, io: Pick<CliIo, 'stdout' | 'stdin' | 'env'> = cliIo()): Output {
  const json = options.json === true;
  const interactive = !json && io.stdout.isTTY === true && io.env.CI !== 'true';
  const ui = () => import('./ui.ts');
  const write = (text: string) => io.stdout.write(text);
  return {
    interactive,
    json,
    async table(columns, rows, jsonRows) {
      if (json) write(`${JSON.stringify(jsonRows ?? rows, null, 2)}\n`);
      else if (interactive) await (await ui()).renderTable(columns, rows);
      else write((await ui()).plainTable(columns, rows));
    },
    result(data, lines) {
      if (json) write(`${JSON.stringify(data, null, 2)}\n`);
      else if (lines.length) write(`${lines.join('\n')}\n`);
    },
    async task(label, fn, done) {
      if (!interactive) return fn(quietTask);
      return (await ui()).runTask(label, fn, done);
    },
    async confirm(question, { yes, flag = '--yes', refusal }) {
      if (yes) return true;
      if (!interactive || io.stdin.isTTY !== true) {
        throw new UsageError(`${refusal}: there is no terminal to confirm on. Pass ${flag} to go ahead.`);
      }
      return (await ui()).confirmPrompt(question);
    },
  };
}

export interface CliContext {
  config: AppConfig;
  handle: DatabaseHandle;
  ctx: ServiceContext;
}

/** Opens the configured database for one command and closes it afterwards. */
export async function withDatabase<T>(fn: (c: CliContext) => Promise<T>): Promise<T> {
  const config = loadConfig(cliIo().env);
  const handle = createDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    return await fn({
      config,
      handle,
      // The CLI hosts no job engine: what it would enqueue is refused (each command says what that means).
      ctx: { db: handle.db, actor: systemActor('cli'), meta: { userAgent: 'finhub-cli' }, runtime: createRuntime() },
    });
  } finally {
    await handle.close();
  }
}

/** Parses a positive whole number option (`--rows 100_000` and `1e6` accepted). */
export function positiveInteger(flag: string) {
  return (raw: string): number => {
    const value = Number(raw.replaceAll('_', ''));
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new UsageError(`${flag} must be a whole number greater than 0 (got '${raw}')`);
    return value;
  };
}
