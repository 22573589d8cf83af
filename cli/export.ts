// finhub export <table> [--out FILE] [--company C] [--from DATE] [--to DATE]
// CSV of one of the exportable tables with the web export's columns and cells,
// streamed from the database (constant memory). To stdout, or with --out to a temporary file in
// the same directory renamed over FILE at the end, so a cron job never leaves half a file.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import type { Command } from 'commander';
import {
  exportTable,
  exportTableNames,
  findCompany,
  resolveExportTable,
} from '../app/features/backups/exports.server.ts';
import { cliIo, createOutput, UsageError, withDatabase, type GlobalOptions } from './runtime.ts';
import { isIsoDay } from '../app/platform/lib/dates.ts';
import { commitFile } from '../app/platform/durable-file.server.ts';

interface ExportOptions {
  out?: string;
  company?: string;
  from?: string;
  to?: string;
  bom: boolean;
}

function day(flag: string) {
  return (raw: string) => {
    if (!isIsoDay(raw)) {
      throw new UsageError(`${flag} must be a date as YYYY-MM-DD (got '${raw}')`);
    }
    return raw;
  };
}

/** Writes respecting back-pressure, so a slow reader never makes the chunks pile up in memory. */
async function writeAll(
  stream: NodeJS.WritableStream,
  chunks: AsyncIterable<string | Uint8Array>,
  onChunk?: () => void,
): Promise<void> {
  for await (const chunk of chunks) {
    if (!stream.write(chunk)) await once(stream, 'drain');
    onChunk?.();
  }
}

export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write one table as CSV (stdout, or --out FILE written atomically)')
    .argument('<table>', `one of: ${exportTableNames().join(', ')}`)
    .option('-o, --out <file>', 'write to FILE (a temporary file renamed at the end) instead of stdout')
    .option('--company <name|id>', 'only rows of this company')
    .option(
      '--from <date>',
      "first day (YYYY-MM-DD) of the table's date (expense/revenue/record/start date; created date otherwise)",
      day('--from'),
    )
    .option('--to <date>', 'last day (YYYY-MM-DD), inclusive', day('--to'))
    .option('--bom', 'start with a UTF-8 byte order mark (Excel on Windows)', false)
    .action(async (name: string, options: ExportOptions, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      const table = resolveExportTable(name);
      if (!table) throw new UsageError(`Unknown table '${name}'. Tables: ${exportTableNames().join(', ')}`);
      if (options.from && options.to && options.from > options.to) throw new UsageError('--from is after --to');
      await withDatabase(async ({ ctx }) => {
        let companyId: number | null = null;
        if (options.company) {
          const company = await findCompany(ctx, options.company);
          if (!company) throw new UsageError(`No company '${options.company}' (give its name or id)`);
          companyId = company.id;
        }
        const csv = exportTable(ctx, table, { companyId, from: options.from, to: options.to }).csv({
          bom: options.bom,
        });
        const chunks = csv.chunks;

        if (!options.out) {
          await writeAll(cliIo().stdout, chunks);
          return;
        }

        const file = path.resolve(options.out);
        const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
        const stream = fs.createWriteStream(temp, { flags: 'wx', mode: 0o640 });
        await once(stream, 'open');
        try {
          await out.task(
            `Exporting ${table}`,
            async (task) => {
              await writeAll(stream, chunks, () => task.update({ done: csv.rows() }));
              stream.end();
              await once(stream, 'finish');
            },
            () => `${csv.rows().toLocaleString('en-US')} rows written to ${file}`,
          );
          // Durable before it replaces the previous file.
          commitFile(temp, file);
        } catch (error) {
          stream.destroy();
          fs.rmSync(temp, { force: true });
          throw error;
        }
        out.result({ table, file, rows: csv.rows() }, out.interactive ? [] : [`${csv.rows()} rows written to ${file}`]);
      });
    });
}
