// A query's rows as CSV written by PostgreSQL itself: `COPY (query) TO STDOUT (FORMAT csv)` on a
// pooled client, streamed by pg-copy-streams. The rows never become JavaScript values: the
// bytes of the wire go to the consumer with only each record's LF made CRLF (RFC 4180, as
// csv.server.ts writes). At 1M rows this is a fraction of the cursor path's cost (pg turning
// every cell into a string, then csv-stringify quoting it again; bench/README.md).
//
// What COPY's CSV does, and what the caller's query must do to match csv.server.ts:
// - A field is quoted when it holds the delimiter, a double quote, CR or LF; quotes inside are
//   doubled. The same rule as csv-stringify with csvCell's options.
// - NULL is an empty, unquoted field; an empty string is written `""`. csvCell writes both
//   bare, so the query must give NULL for empty text (`nullif(x, '')`).
// - A one-column COPY quotes `\.` and writes an empty row as a blank line; csv.server.ts writes
//   `""` there. Only queries of two or more columns are taken.
// - Records end with LF; here made CRLF outside quoted fields (a quoted LF is data, kept).
//
// COPY takes no bind parameters: the compiled query's values are written into its text as
// literals (numbers, strings through pg's escapeLiteral, booleans, null, Dates as ISO text).
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { CompiledQuery } from 'kysely';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/** One SQL literal for a bind value; throws for kinds a query here has no business passing. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`Cannot write ${value} into a COPY query`);
      return `(${String(value)})`; // parenthesised: `x - -1` must not become the comment `x --1`
    case 'bigint':
      return `(${value.toString()})`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return pg.escapeLiteral(value);
    default:
      if (value instanceof Date) return pg.escapeLiteral(value.toISOString());
      throw new TypeError(`Cannot write a ${Object.prototype.toString.call(value)} into a COPY query`);
  }
}

/**
 * The compiled query's text with `$n` replaced by its value as a literal. `$` inside quoted
 * literals or identifiers (and dollar-quoted strings, which Kysely never writes) is left alone.
 */
export function inlineParameters(query: Pick<CompiledQuery, 'sql' | 'parameters'>): string {
  const text = query.sql;
  const params = query.parameters;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      // A quoted literal or identifier; a doubled quote stays inside it.
      let j = i + 1;
      for (;;) {
        const k = text.indexOf(c, j);
        if (k === -1) throw new Error('Unterminated quote in a COPY query');
        if (text[k + 1] === c) j = k + 2;
        else {
          j = k + 1;
          break;
        }
      }
      out += text.slice(i, j);
      i = j;
      continue;
    }
    if (c === '$') {
      const match = /^\$(\d+)/.exec(text.slice(i, i + 12));
      if (match) {
        const index = Number(match[1]) - 1;
        if (index < 0 || index >= params.length)
          throw new Error(`COPY query refers to $${match[1]}, which has no value`);
        out += sqlLiteral(params[index]);
        i += match[0].length;
        continue;
      }
      throw new Error('A dollar-quoted string or unknown $ in a COPY query');
    }
    out += c;
    i++;
  }
  return out;
}

/** Where a CSV stream stands between chunks: inside a quoted field or not. */
export interface CrlfState {
  quoted: boolean;
  /** Records ended so far. */
  records: number;
}

/**
 * A chunk of COPY's CSV with each record's LF made CRLF (a quoted LF is left as it is). The
 * scanning is Buffer.indexOf (native) from quote to quote and LF to LF, and the copying
 * Buffer.copy between record ends: about twice as fast as a JavaScript loop over the bytes.
 */
export function crlfRecords(chunk: Buffer, state: CrlfState): Buffer {
  const n = chunk.length;
  let quoted = state.quoted;
  const ends: number[] = [];
  let quote = chunk.indexOf(QUOTE);
  let i = 0;
  while (i < n) {
    if (quoted) {
      // Every quote toggles: a doubled quote inside a field closes and opens it again.
      if (quote === -1) break;
      quoted = false;
      i = quote + 1;
      quote = chunk.indexOf(QUOTE, i);
      continue;
    }
    const lf = chunk.indexOf(LF, i);
    if (quote !== -1 && (lf === -1 || quote < lf)) {
      quoted = true;
      i = quote + 1;
      quote = chunk.indexOf(QUOTE, i);
      continue;
    }
    if (lf === -1) break;
    ends.push(lf);
    i = lf + 1;
  }
  const out = Buffer.allocUnsafe(n + ends.length);
  let from = 0;
  let j = 0;
  for (let k = 0; k < ends.length; k++) {
    j += chunk.copy(out, j, from, ends[k]);
    out[j++] = CR;
    from = ends[k];
  }
  chunk.copy(out, j, from, n);
  state.quoted = quoted;
  state.records += ends.length;
  return out;
}

/**
 * The query's rows as CSV bytes (no header), one chunk per read from the server. `onRecords`
 * is told the running count after each chunk. Stopping early (a `break`, `return()`) ends the
 * COPY by dropping its connection; the pool opens another.
 */
export async function* copyCsv(
  pool: pg.Pool,
  query: Pick<CompiledQuery, 'sql' | 'parameters'>,
  onRecords?: (records: number) => void,
): AsyncGenerator<Uint8Array, void, undefined> {
  const text = `copy (${inlineParameters(query)}) to stdout (format csv)`;
  const client = await pool.connect();
  let finished = false;
  const stream = client.query(copyTo(text));
  try {
    const state: CrlfState = { quoted: false, records: 0 };
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const out = crlfRecords(chunk, state);
      onRecords?.(state.records);
      yield out;
    }
    if (state.quoted) throw new Error('COPY ended inside a quoted field');
    finished = true;
  } finally {
    if (!finished) stream.destroy();
    // A COPY stopped half-way leaves its connection mid-protocol: never hand it back.
    client.release(finished ? undefined : true);
  }
}
