// The backup file (docs/decisions.md): gzip of JSON lines, written and read at constant memory.
//   line 1   the manifest: format and its version, app version, schema version (the last
//            migration), dialect, created, and per table its columns and row count
//   then     per table, in the manifest's order: {"table": name, "rows": n}, then n lines, each
//            a row as a JSON array in the order of the table's columns
//   last     {"end": true, "rows": total}
// The file is written to a temporary name (0600) and renamed when complete and flushed, so a
// backup file is either whole or absent. Its SHA-256 is taken from the bytes as they are written.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import type { Snapshot } from '../../../db/snapshot.ts';
import { commitFile } from '../../platform/durable-file.server.ts';
import { msg, type MessageValues } from '../../platform/i18n/messages.ts';
import { worded } from '../../platform/i18n/refusal-words.ts';

export const BACKUP_FORMAT = 'finhub-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface ManifestTable {
  name: string;
  /** camelCase column names, the order of each row's values. */
  columns: string[];
  rows: number;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  /** The name of the last migration applied when the backup was made. */
  schemaVersion: string;
  dialect: 'sqlite' | 'postgres';
  createdAt: string;
  name: string;
  tables: ManifestTable[];
  rows: number;
}

/** A file that is not a whole, well-formed backup; `message` says what is wrong. */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/** A BackupFileError worded for readers of other languages (a restore's refusal shows it). */
const fileError = (message: string, values?: MessageValues) =>
  worded((english) => new BackupFileError(english), message, values);

export interface WrittenBackup {
  manifest: BackupManifest;
  sha256: string;
  size: number;
}

/** Writes the snapshot's tables to `file`; progress reports rows written so far and the total. */
export async function writeBackupFile(
  file: string,
  header: Omit<BackupManifest, 'format' | 'formatVersion' | 'tables' | 'rows'>,
  tables: { name: string; columns: string[] }[],
  snapshot: Snapshot,
  onProgress?: (done: number, total: number) => void,
): Promise<WrittenBackup> {
  const counted: ManifestTable[] = [];
  for (const t of tables) counted.push({ ...t, rows: await snapshot.count(t.name) });
  const total = counted.reduce((sum, t) => sum + t.rows, 0);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    ...header,
    tables: counted,
    rows: total,
  };

  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const out = fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 });
  const gzip = createGzip({ level: 6 });
  const hash = crypto.createHash('sha256');
  let size = 0;
  gzip.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
  });
  gzip.pipe(out);
  const failed = new Promise<never>((_, reject) => {
    gzip.once('error', reject);
    out.once('error', reject);
  });
  const write = async (text: string) => {
    if (!gzip.write(text)) await Promise.race([once(gzip, 'drain'), failed]);
  };
  try {
    await write(`${JSON.stringify(manifest)}\n`);
    let done = 0;
    for (const t of counted) {
      await write(`${JSON.stringify({ table: t.name, rows: t.rows })}\n`);
      let rows = 0;
      for await (const batch of snapshot.rows(t.name, t.columns)) {
        let text = '';
        for (const row of batch) text += `${JSON.stringify(row)}\n`;
        await write(text);
        rows += batch.length;
        done += batch.length;
        onProgress?.(done, total);
      }
      // The snapshot cannot change under us; a difference is a bug, never a silent short file.
      if (rows !== t.rows) throw new Error(`${t.name}: counted ${t.rows} rows but read ${rows}`);
    }
    await write(`${JSON.stringify({ end: true, rows: total })}\n`);
    gzip.end();
    await Promise.race([once(out, 'finish'), failed]);
    commitFile(temp, file);
    return { manifest, sha256: hash.digest('hex'), size };
  } catch (error) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** SHA-256 (hex) of a file's bytes. */
export async function hashFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export type BackupEvent =
  | { kind: 'manifest'; manifest: BackupManifest }
  | { kind: 'table'; table: ManifestTable }
  | { kind: 'rows'; table: ManifestTable; rows: unknown[][] }
  | { kind: 'end'; manifest: BackupManifest };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkManifest(value: unknown): BackupManifest {
  if (!isObject(value) || value.format !== BACKUP_FORMAT)
    throw fileError(msg('This is not a Group Finance Hub backup (no backup manifest at the start)'));
  if (value.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw fileError(msg('The backup file format version {found} is not supported (this version reads {supported})'), {
      found: String(value.formatVersion),
      supported: BACKUP_FORMAT_VERSION,
    });
  }
  if (!isManifest(value)) throw fileError(msg('The backup manifest is incomplete or damaged'));
  const sum = value.tables.reduce((n, t) => n + t.rows, 0);
  if (sum !== value.rows) throw fileError(msg("The backup manifest's row counts do not add up"));
  return value;
}

/** A manifest's schema version, time, counts and tables are well formed (its format and format version are checked before). */
function isManifest(value: unknown): value is BackupManifest {
  return (
    isObject(value) &&
    typeof value.schemaVersion === 'string' &&
    typeof value.createdAt === 'string' &&
    typeof value.rows === 'number' &&
    Array.isArray(value.tables) &&
    value.tables.every(isManifestTable)
  );
}

function isManifestTable(t: unknown): t is ManifestTable {
  return (
    isObject(t) &&
    typeof t.name === 'string' &&
    Array.isArray(t.columns) &&
    t.columns.every((c) => typeof c === 'string') &&
    typeof t.rows === 'number' &&
    Number.isSafeInteger(t.rows) &&
    t.rows >= 0
  );
}

/**
 * Reads a backup file, checking its whole structure as it goes: the manifest, each table's
 * header in the manifest's order, every row's width, the counts and the end line. Anything
 * wrong (including a damaged gzip stream) throws a BackupFileError naming the problem.
 */
export async function* readBackupFile(file: string, batchSize = 1000): AsyncGenerator<BackupEvent> {
  const input = fs.createReadStream(file).pipe(createGunzip());
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let manifest: BackupManifest | null = null;
  let tableIndex = -1;
  let current: ManifestTable | null = null;
  let rowsLeft = 0;
  let batch: unknown[][] = [];
  let ended = false;
  let lineNumber = 0;
  const parse = (line: string) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw fileError(msg('Line {line} of the backup is not valid JSON'), { line: lineNumber });
    }
  };
  try {
    for await (const line of lines) {
      lineNumber++;
      if (ended) throw fileError(msg('The backup has data after its end'));
      const value = parse(line);
      if (!manifest) {
        manifest = checkManifest(value);
        yield { kind: 'manifest', manifest };
        continue;
      }
      if (current && rowsLeft > 0) {
        if (!Array.isArray(value) || value.length !== current.columns.length) {
          throw fileError(msg('Row {row} of {table} is damaged (line {line})'), {
            row: current.rows - rowsLeft + 1,
            table: current.name,
            line: lineNumber,
          });
        }
        batch.push(value);
        rowsLeft--;
        if (batch.length >= batchSize || rowsLeft === 0) {
          yield { kind: 'rows', table: current, rows: batch };
          batch = [];
        }
        continue;
      }
      if (!isObject(value))
        throw current
          ? fileError(msg('{table} has more rows than its count (line {line})'), {
              table: current.name,
              line: lineNumber,
            })
          : fileError(msg('Unexpected line (line {line})'), { line: lineNumber });
      if (value.end === true) {
        if (tableIndex !== manifest.tables.length - 1 || value.rows !== manifest.rows)
          throw fileError(msg('The backup ends before all its tables'));
        ended = true;
        continue;
      }
      const expected = manifest.tables[++tableIndex];
      if (!expected || value.table !== expected.name || value.rows !== expected.rows) {
        throw fileError(msg('Table {table} is not where the manifest says (line {line})'), {
          table: String(value.table),
          line: lineNumber,
        });
      }
      current = expected;
      rowsLeft = expected.rows;
      yield { kind: 'table', table: expected };
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('Z_') || code === 'ERR_ZLIB')
      throw fileError(msg('The backup file is damaged ({problem})'), { problem: (error as Error).message });
    throw error;
  } finally {
    lines.close();
    input.destroy();
  }
  if (!manifest) throw fileError(msg('The backup file is empty'));
  if (!ended)
    throw current && rowsLeft > 0
      ? fileError(msg('The backup is cut short in table {table}'), { table: current.name })
      : fileError(msg('The backup is cut short (no end line)'));
  yield { kind: 'end', manifest };
}

/** Reads just the manifest (the first line). */
export async function readManifest(file: string): Promise<BackupManifest> {
  for await (const event of readBackupFile(file)) {
    if (event.kind === 'manifest') return event.manifest;
  }
  throw fileError(msg('The backup file is empty'));
}
