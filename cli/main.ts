// `finhub` entry: runs the program and maps the outcome to an exit code
// (0 ok, 1 failure, 2 usage error). Errors are one line on stderr, never a stack
// (set FINHUB_DEBUG=1 for one).
import { CommanderError } from 'commander';
import { ConfigError } from '../app/services/config.server.ts';
import { isDomainError } from '../app/services/errors.ts';
import { buildProgram } from './program.ts';
import { EXIT, UsageError } from './runtime.ts';

const SUCCESS_CODES = new Set(['commander.helpDisplayed', 'commander.version']);

export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (and the help hint).
      return SUCCESS_CODES.has(error.code) ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      return EXIT.usage;
    }
    if (isDomainError(error)) {
      const details = error.errors?.map((e) => `\n  ${e.field}: ${e.message}`).join('') ?? '';
      process.stderr.write(`error: ${error.message}${details}\n`);
      return EXIT.failure;
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT.failure;
    }
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env.FINHUB_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    return EXIT.failure;
  }
}

/** A closed pipe (`finhub export … | head`) is not a failure: stop quietly. */
function quietOnBrokenPipe(stream: NodeJS.WriteStream) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
}

export async function main(): Promise<void> {
  quietOnBrokenPipe(process.stdout);
  const code = await runCli(process.argv.slice(2));
  // Let stdout drain (a pipe may still hold the tail of an export) before exiting.
  process.exitCode = code;
}
