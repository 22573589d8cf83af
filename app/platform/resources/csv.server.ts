// The one CSV writer, shared by the web "Export Data" buttons (a Remix loader returning
// `new Response(csvReadableStream(...), { headers: csvDownloadHeaders(...) })`) and the
// `finhub export` CLI (`for await (const chunk of csvChunks(...)) process.stdout.write(chunk)`).
// On PostgreSQL a resource's records are written by the database instead (COPY, in
// resource-csv.server.ts), after csvHeader's header row, in this same format byte for byte.
//
// Output format (RFC 4180):
// - UTF-8, comma-separated, one header row, then one record per row.
// - Every record, the header included, ends with CRLF ("\r\n"), the last one too.
// - A field is wrapped in double quotes when it contains a comma, a double quote, CR or LF
//   (a bare LF or CR too, which csv-stringify alone would leave unquoted);
//   double quotes inside are doubled. Other fields are written bare.
// - No byte order mark unless `{ bom: true }` is asked for (Excel on Windows needs one to
//   read non-ASCII text as UTF-8 when a file is opened by double-click).
//
// Memory stays constant whatever the number of rows: rows are pulled from the source only as
// the consumer asks for more text, at most CSV_BATCH_ROWS rows (or about CSV_BATCH_CHARS
// characters) at a time, and each batch is turned into text (the header by csv-stringify's sync
// API, the records by csvField with the same rules) and handed on as one chunk. Stopping early
// (a `break`, `return()`, or a cancelled stream) calls `return()` on the source, so a database
// cursor behind it is closed.

import { stringify, type Options as StringifyOptions } from 'csv-stringify/sync';

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => unknown;
}

export interface CsvOptions {
  /** Start the output with a UTF-8 byte order mark (U+FEFF). Default false. */
  bom?: boolean;
}

/** The largest number of rows turned into one chunk. */
export const CSV_BATCH_ROWS = 1000;
/** A chunk is also cut once its cells reach about this many characters. */
export const CSV_BATCH_CHARS = 64 * 1024;

/** RFC 4180 line ending, used after every record. */
export const CSV_RECORD_DELIMITER = '\r\n';

/**
 * Turns rows into CSV text: the header row as the first chunk (so a download starts at once),
 * then one chunk per batch of rows. Cells go through `csvCell`; headers too.
 *
 * The source is read lazily and sequentially; an error thrown by the source or by a column's
 * `value` surfaces from the iteration (the latter wrapped with the column and row number).
 */
export function csvChunks<Row>(
  columns: CsvColumn<Row>[],
  rows: RowSource<Row>,
  options: CsvOptions = {},
): AsyncGenerator<string, void, undefined> {
  if (!Array.isArray(columns) || columns.length === 0) throw new TypeError('csvChunks needs at least one column');
  for (const column of columns) {
    if (typeof column?.header !== 'string' || typeof column.value !== 'function')
      throw new TypeError('Each CSV column needs a header string and a value function');
  }
  if (isBatches(rows)) return generateCsv(columns, rows.batches, options);
  const iterable = rows as Partial<AsyncIterable<Row> & Iterable<Row>> | null | undefined;
  if (
    iterable == null ||
    (typeof iterable[Symbol.asyncIterator] !== 'function' && typeof iterable[Symbol.iterator] !== 'function')
  ) {
    throw new TypeError('csvChunks needs an iterable or async iterable of rows');
  }
  return generateCsv(columns, batchesOf(rows), options);
}

/** Rows one at a time, or already in batches (database cursors): one CSV chunk per batch. */
export type RowSource<Row> = AsyncIterable<Row> | Iterable<Row> | { batches: AsyncIterable<Row[]> };

function isBatches<Row>(rows: RowSource<Row>): rows is { batches: AsyncIterable<Row[]> } {
  return rows != null && typeof rows === 'object' && 'batches' in rows;
}

/** Groups single rows into batches (how many does not change the chunks: those follow CSV_BATCH_ROWS/CHARS). */
async function* batchesOf<Row>(rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<Row[]> {
  let batch: Row[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= CSV_BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** csv-stringify's options for these columns: the header's, and the rules csvField follows. */
export function stringifyOptions(columns: readonly Pick<CsvColumn<unknown>, 'header'>[]): StringifyOptions {
  return {
    record_delimiter: CSV_RECORD_DELIMITER,
    eof: true,
    escape_formulas: false, // done by csvCell, which spares plain negative numbers
    // csv-stringify quotes only the configured record delimiter (\r\n): a bare \n or \r would
    // be written unquoted and split the row, the next "row" starting with un-neutralised text
    // (STACK-NOTES 13). Quote every cell holding either.
    quoted_match: /[\r\n]/,
    // A one-column record whose only cell is empty would be a blank line, which many readers
    // skip: write it as "" instead.
    quoted_empty: columns.length === 1,
  };
}

/**
 * The header row (with the byte order mark when asked for), CRLF included: the first chunk of
 * csvChunks, and of the PostgreSQL export, whose rows the database writes (resource-csv.server.ts).
 */
export function csvHeader<Row>(columns: CsvColumn<Row>[], options: CsvOptions = {}): string {
  const headers = columns.map((column) => csvCell(column.header));
  return stringify([], { ...stringifyOptions(columns), bom: options.bom === true, header: true, columns: headers });
}

async function* generateCsv<Row>(
  columns: CsvColumn<Row>[],
  batches: AsyncIterable<Row[]>,
  options: CsvOptions,
): AsyncGenerator<string, void, undefined> {
  yield csvHeader(columns, options);

  const width = columns.length;
  let rowNumber = 0;
  let text = '';
  let rows = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      rowNumber++;
      for (let i = 0; i < width; i++) {
        let value: unknown;
        try {
          value = columns[i].value(row);
        } catch (error) {
          throw new Error(
            `CSV column "${columns[i].header}" failed on row ${rowNumber}: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          );
        }
        if (i > 0) text += ',';
        text += csvField(csvCell(value), width === 1);
      }
      text += CSV_RECORD_DELIMITER;
      if (++rows >= CSV_BATCH_ROWS || text.length >= CSV_BATCH_CHARS) {
        yield text;
        text = '';
        rows = 0;
      }
    }
  }
  if (rows > 0) yield text;
}

const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell as csv-stringify writes it with stringifyOptions (the header row still goes through
 * it, and csv.server.test.ts compares every record with its output): quoted when it holds a
 * comma, a double quote, CR or LF, quotes doubled; an empty cell bare, or `""` when it is the
 * record's only cell. Records are written here rather than by csv-stringify's sync API, whose
 * general per-field work (casting, option lookups, separator checks for any delimiter) was a large
 * share of a 1M-row `finhub export` (bench/README.md).
 */
function csvField(cell: string, alone: boolean): string {
  if (cell === '') return alone ? '""' : '';
  return NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * The same CSV as UTF-8 bytes in a web ReadableStream, for `new Response(stream)`. Pull-based
 * with a high-water mark of 0: nothing is read from `rows` until the consumer reads, and each
 * read pulls one chunk (one batch of rows). Cancelling the stream ends the source.
 */
export function csvReadableStream<Row>(
  columns: CsvColumn<Row>[],
  rows: RowSource<Row>,
  options: CsvOptions = {},
): ReadableStream<Uint8Array> {
  return csvByteStream(csvChunks(columns, rows, options));
}

/** CSV text or bytes (csvChunks, or the PostgreSQL export's) as a pull-based byte stream; see csvReadableStream. */
export function csvByteStream(
  chunks: AsyncIterator<string | Uint8Array, unknown, undefined>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value);
      },
      async cancel() {
        await chunks.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

// Characters that make a spreadsheet treat a cell as a formula (OWASP "CSV Injection"), plus
// the full-width forms some spreadsheet apps normalise to them (as csv-stringify's own
// `escape_formulas` does). A leading line feed counts like a leading CR.
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
// A plain decimal, optionally negative: '-12.50', '-3', '-0.5', '-.5'. Harmless, left as is.
const PLAIN_DECIMAL = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;

/** Prefixes a single quote to text a spreadsheet would run as a formula; plain numbers pass. */
function neutralise(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_DECIMAL.test(text) ? `'${text}` : text;
}

/** Writes a number without an exponent: 1e21 → '1000000000000000000000', 1e-7 → '0.0000001'. */
function formatNumber(n: number): string {
  const text = String(n);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text; // ordinary values, NaN, Infinity, -Infinity
  const [, sign, lead, fraction = '', exponent] = match;
  const digits = lead + fraction;
  const point = 1 + Number(exponent); // the decimal point's position within `digits`
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * One cell's text (before CSV quoting, which csv-stringify does):
 * null/undefined → ''; booleans → 'true'/'false'; numbers and bigints in plain decimal
 * notation (never an exponent); Date → ISO 8601 (an invalid Date → ''); other objects → JSON;
 * strings as they are. Text starting with =, +, -, @, tab or CR (or a full-width =, +, -, @)
 * (or LF) gets a leading single quote against formula injection, unless it is a plain decimal number
 * such as '-12.50'.
 */
export function csvCell(value: unknown): string {
  let text: string;
  switch (typeof value) {
    case 'undefined':
      return '';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      text = value;
      break;
    case 'number':
      text = formatNumber(value);
      break;
    case 'bigint':
      text = value.toString();
      break;
    case 'symbol':
      text = value.toString();
      break;
    case 'function':
      return '';
    default: // object
      if (value === null) return '';
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
      try {
        text = JSON.stringify(value) ?? '';
      } catch {
        text = String(value); // cycles, bigints inside
      }
  }
  return neutralise(text);
}

// Characters never kept in a download name: control characters (read as spaces), and path
// separators and the other characters Windows refuses in file names (read as '_').
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;
const UNSAFE_FILENAME_CHARS = /[<>:"/\\|?*]/g;
const MAX_FILENAME_LENGTH = 180;

function safeFilename(filename: string): string {
  let stem = String(filename)
    .replace(/\p{Cs}/gu, '') // lone surrogates cannot be encoded
    .replace(CONTROL_CHARS, ' ')
    .split(/[/\\]/)
    .pop()!
    .replace(UNSAFE_FILENAME_CHARS, '_')
    .replace(/\s+/g, ' ')
    .replace(/\.csv$/i, '')
    .replace(/^[.\s]+|[.\s]+$/g, ''); // no hidden files, no '..', no trailing dots
  if (stem.length > MAX_FILENAME_LENGTH) stem = stem.slice(0, MAX_FILENAME_LENGTH).replace(/\p{Cs}/gu, '');
  return `${stem || 'export'}.csv`;
}

/** RFC 5987 ext-value encoding (for `filename*`). */
function encodeExtValue(text: string): string {
  return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Response headers for a CSV download. The name is reduced to a safe base name ending in .csv
 * (no directories, quotes, control or reserved characters); non-ASCII names are sent as an
 * RFC 6266 `filename*` with an ASCII `filename` fallback.
 */
export function csvDownloadHeaders(filename: string): Headers {
  const name = safeFilename(filename);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/%/g, '_');
  let disposition = `attachment; filename="${ascii}"`;
  if (ascii !== name) disposition += `; filename*=UTF-8''${encodeExtValue(name)}`;
  return new Headers({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': disposition,
    'Cache-Control': 'no-store',
  });
}

/**
 * A download name from a base and the date (UTC calendar day, as the rest of the app stores
 * dates): exportFilename('actual-expenses', new Date('2026-11-22T10:00:00Z')) →
 * 'actual-expenses-2026-11-22.csv'. The base is reduced to lower-case ASCII letters, digits
 * and single dashes ('export' if nothing is left). Throws a RangeError for an invalid Date.
 */
export function exportFilename(base: string, date: Date = new Date()): string {
  const slug =
    String(base)
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/\.csv$/, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'export';
  return `${slug}-${date.toISOString().slice(0, 10)}.csv`;
}
