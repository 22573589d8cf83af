// finhub import <table> <file> [--dry-run] [--skip-invalid] [--update-by-id] [--allow-duplicate]
// A CSV file into a table, as the screen's import does it (docs/imports.md): every row checked,
// then all written or none (--skip-invalid: the valid ones). A progress bar on a terminal, plain
// lines otherwise (each refused row on stderr). Exit 0 when every row went in (or checked valid),
// 1 when rows were refused or nothing was written, 2 for a wrong call: cron can tell.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import {
  cliIo,
  createOutput,
  ReportedFailure,
  UsageError,
  withDatabase,
  type GlobalOptions,
} from '../../../cli/runtime.ts';
import { RESOURCE_LIST } from '../resources.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { createImport, importableResource, importSummary, measureFile, performImport } from './imports.server.ts';

interface ImportOptions {
  dryRun: boolean;
  skipInvalid: boolean;
  updateById: boolean;
  allowDuplicate: boolean;
}

const tableNames = () => RESOURCE_LIST.filter((d) => !d.readOnly).map((d) => snakeCase(d.table));

export function registerImport(program: Command): void {
  program
    .command('import')
    .description('import a CSV file into a table: every row checked, then all written or none')
    .argument('<table>', `one of: ${tableNames().join(', ')}`)
    .argument('<file>', 'the CSV file (its first row names the columns, as `finhub export` writes them)')
    .option('--dry-run', 'check every row and write nothing', false)
    .option('--skip-invalid', 'write the valid rows and leave the invalid ones out', false)
    .option('--update-by-id', 'a row whose ID names an existing record updates it', false)
    .option('--allow-duplicate', 'import a file imported into this table before all the same', false)
    .action(async (table: string, file: string, options: ImportOptions, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      let title: string;
      try {
        title = importableResource(table).title;
      } catch {
        throw new UsageError(`Unknown table '${table}'. Tables: ${tableNames().join(', ')}`);
      }
      const full = path.resolve(file);
      if (!fs.existsSync(full) || !fs.statSync(full).isFile()) throw new UsageError(`No file '${file}'`);
      await withDatabase(async ({ ctx, config }) => {
        const row = await createImport(ctx, {
          table,
          fileName: path.basename(full),
          file: await measureFile(full),
          updateById: options.updateById,
          phase: options.dryRun ? 'check' : 'import',
          mode: options.skipInvalid ? 'valid' : 'all',
          allowDuplicate: options.allowDuplicate,
          keepFile: true,
          runHere: true,
        });
        const stderr = cliIo().stderr;
        const done = await out.task(
          `${options.dryRun ? 'Checking' : 'Importing'} ${path.basename(full)} into ${title}`,
          (task) =>
            performImport(ctx, config, row.id, {
              onProgress: (rows) => task.update({ done: rows }),
              onRefused: (line, errors) => {
                if (!out.interactive && !out.json)
                  stderr.write(`line ${line}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}\n`);
              },
            }),
          (result) => importSummary(result),
        );
        const summary = importSummary(done);
        out.result(
          {
            id: done.id,
            table: done.resource,
            status: done.status,
            rows: done.rowsTotal,
            valid: done.rowsValid,
            invalid: done.rowsInvalid,
            created: done.rowsCreated,
            updated: done.rowsUpdated,
            unchanged: done.rowsUnchanged,
            error: done.error,
          },
          out.interactive ? [] : [`import #${done.id} ${done.status}: ${summary}`],
        );
        const ok = done.status === 'completed' || (done.status === 'checked' && !done.rowsInvalid);
        if (!ok || (done.rowsInvalid ?? 0) > 0) throw new ReportedFailure(summary);
      });
    });
}
