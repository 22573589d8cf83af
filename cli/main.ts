// `finhub` entry: runs the program and maps the outcome to an exit code
// (0 ok, 1 failure, 2 usage error). Errors are one line on stderr, never a stack
// (set FINHUB_DEBUG=1 for one).
import { CommanderError } from 'commander';
import { ConfigError } from '../app/platform/config.server.ts';
import { isDomainError } from '../app/platform/errors.ts';
import { buildProgram } from './program.ts';
import { usePrivateFileModes } from '../app/platform/private-files.server.ts';
import { EXIT, processIo, ReportedFailure, UsageError, withCliIo, type CliIo } from './runtime.ts';

const SUCCESS_CODES = new Set(['commander.helpDisplayed', 'commander.version']);

/**
 * Runs one command line and returns its exit code. `io` (default: this process's environment
 * and streams) is what the command reads its configuration from and writes to, so tests can
 * run the program in process.
 */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  const program = buildProgram({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
  });
  const fail = (text: string) => io.stderr.write(text);
  return withCliIo(io, async () => {
    try {
      await program.parseAsync(argv, { from: 'user' });
      return EXIT.ok;
    } catch (error) {
      if (error instanceof CommanderError) {
        // Commander has already printed its message (and the help hint).
        return SUCCESS_CODES.has(error.code) ? EXIT.ok : EXIT.usage;
      }
      if (error instanceof ReportedFailure) return EXIT.failure;
      if (error instanceof UsageError) {
        fail(`error: ${error.message}\n`);
        return EXIT.usage;
      }
      if (isDomainError(error)) {
        const details = error.errors?.map((e) => `\n  ${e.field}: ${e.message}`).join('') ?? '';
        fail(`error: ${error.message}${details}\n`);
        return EXIT.failure;
      }
      if (error instanceof ConfigError) {
        fail(`${error.message}\n`);
        return EXIT.failure;
      }
      fail(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      if (io.env.FINHUB_DEBUG && error instanceof Error) fail(`${error.stack}\n`);
      return EXIT.failure;
    }
  });
}

/** A closed pipe (`finhub export … | head`) is not a failure: stop quietly. */
function quietOnBrokenPipe(stream: NodeJS.WriteStream) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
}

export async function main(): Promise<void> {
  // What the CLI writes (the database, backups, exports) is private like the server's files.
  usePrivateFileModes();
  quietOnBrokenPipe(process.stdout);
  const code = await runCli(process.argv.slice(2));
  // Let stdout drain (a pipe may still hold the tail of an export) before exiting.
  process.exitCode = code;
}
