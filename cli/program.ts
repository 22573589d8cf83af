// The commander program. Command groups are a list: adding one is one line.
import { Command } from 'commander';
import { registerAudit } from '../app/features/audit/cli.ts';
import { registerBackups } from '../app/features/backups/cli.ts';
import { registerDb } from './db.ts';
import { registerExport } from './export.ts';
import { registerImport } from '../app/features/imports/cli.ts';
import { registerIntegrations } from '../app/features/integrations/cli.ts';
import { registerJobs } from './jobs.ts';
import { cliIo } from './runtime.ts';
import { registerUsers } from '../app/features/users/cli.ts';

export const COMMAND_GROUPS: ((program: Command) => void)[] = [
  registerDb,
  registerUsers,
  registerExport,
  registerImport,
  registerJobs,
  registerAudit,
  registerBackups,
  registerIntegrations,
];

export function buildProgram(
  io: { writeOut(text: string): void; writeErr(text: string): void } = {
    writeOut: (text) => process.stdout.write(text),
    writeErr: (text) => process.stderr.write(text),
  },
): Command {
  const program = new Command('finhub')
    .description('Group Finance Hub admin command line (uses DATABASE_URL / DATA_DIR like the web app)')
    .version(cliIo().env.npm_package_version ?? '0.1.0', '-V, --version')
    .option('--json', 'machine-readable JSON output (no colours, no prompts)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.writeOut, writeErr: io.writeErr })
    // Errors become exceptions mapped to exit codes in main.ts instead of process.exit().
    .exitOverride();
  for (const register of COMMAND_GROUPS) register(program);
  return program;
}
