// The shared CSV writer: RFC 4180 output that parses back to the same cells, formula-injection
// neutralising, lazy pull-based streaming with constant memory, and download headers.
import { describe, expect, it } from 'vitest';
import { parse as csvParse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { parseCsv } from '../../../test/csv.ts';
import {
  CSV_BATCH_ROWS,
  csvCell,
  csvChunks,
  csvDownloadHeaders,
  csvReadableStream,
  exportFilename,
  stringifyOptions,
  type CsvColumn,
} from './csv.server.ts';
import { settle } from '../../../test/wait.ts';

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

/** The stream's chunks, read one at a time (the DOM lib here has no async iteration for it). */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

async function readStream(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const bytes of chunksOf(stream)) text += decoder.decode(bytes, { stream: true });
  return text + decoder.decode();
}

type Row = { id: number; name: unknown; amount: unknown };
const columns: CsvColumn<Row>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Name', value: (r) => r.name },
  { header: 'Amount', value: (r) => r.amount },
];

describe('csvCell', () => {
  it('formats scalars, dates and objects', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-0)).toBe('0');
    expect(csvCell(1234.5)).toBe('1234.5');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvCell(99_999_999_999.99)).toBe('99999999999.99');
    expect(csvCell(12n)).toBe('12');
    expect(csvCell(-12n)).toBe('-12');
    expect(csvCell(new Date('2026-11-22T10:20:30.456Z'))).toBe('2026-11-22T10:20:30.456Z');
    expect(csvCell(new Date('nope'))).toBe('');
    expect(csvCell({ a: 1, b: 'x' })).toBe('{"a":1,"b":"x"}');
    expect(csvCell([1, 'two'])).toBe('[1,"two"]');
    expect(csvCell('')).toBe('');
    expect(csvCell('plain text')).toBe('plain text');
  });

  it('never writes an exponent', () => {
    expect(csvCell(1e21)).toBe('1000000000000000000000');
    expect(csvCell(-1.5e22)).toBe('-15000000000000000000000');
    expect(csvCell(1e-7)).toBe('0.0000001');
    expect(csvCell(-2.5e-8)).toBe('-0.000000025');
    expect(csvCell(1.2345e-7)).toBe('0.00000012345');
  });

  it('neutralises formula-like text with a leading quote', () => {
    for (const text of [
      '=SUM(A1)',
      '+1',
      '-cmd',
      '@x',
      '\tfoo',
      '\rfoo',
      '=1+2";=1+2',
      '-',
      '+',
      '-1e5',
      '-1,234.50',
      '\uFF1DSUM(A1)',
    ]) {
      expect(csvCell(text), JSON.stringify(text)).toBe(`'${text}`);
    }
    expect(csvCell({ toJSON: () => '=x' })).toBe('"=x"'); // JSON text starts with a quote
  });

  it('leaves plain numbers and harmless text alone', () => {
    for (const text of ['-12.5', '-12.50', '-3', '-0.5', '-.5', '12.50', '0', 'a=b', ' =x', "'quoted"]) {
      expect(csvCell(text), JSON.stringify(text)).toBe(text);
    }
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(-1e21)).toBe('-1000000000000000000000');
  });
});

describe('csvChunks', () => {
  it('writes a header row and CRLF-terminated records that parse back', async () => {
    const rows: Row[] = [
      { id: 1, name: 'Acme, Ltd', amount: '-12.50' },
      { id: 2, name: 'He said "hi"', amount: 1234.5 },
      { id: 3, name: 'line one\nline two\r\nline three\rend', amount: null },
      { id: 4, name: 'Zürich € 日本 🚀', amount: undefined },
      { id: 5, name: '', amount: 0 },
      { id: 6, name: '"', amount: ',' },
      { id: 7, name: '=SUM(A1)', amount: '+1' },
      { id: 8, name: '-cmd', amount: '@x' },
      { id: 9, name: ' spaced ', amount: -12.5 },
    ];
    const text = await collect(csvChunks(columns, rows));
    expect(text.startsWith('ID,Name,Amount\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text).toContain('2,"He said ""hi""",1234.5\r\n');
    expect(parseCsv(text)).toEqual([
      ['ID', 'Name', 'Amount'],
      ['1', 'Acme, Ltd', '-12.50'],
      ['2', 'He said "hi"', '1234.5'],
      ['3', 'line one\nline two\r\nline three\rend', ''],
      ['4', 'Zürich € 日本 🚀', ''],
      ['5', '', '0'],
      ['6', '"', ','],
      ['7', "'=SUM(A1)", "'+1"],
      ['8', "'-cmd", "'@x"],
      ['9', ' spaced ', '-12.5'],
    ]);
  });

  it('writes every record as csv-stringify does with the same options, for awkward cells and every width', async () => {
    // Cells from pieces that each change how a field is written: separators, quotes, line
    // breaks alone and as CRLF, spaces, formula starts, a plain negative number, non-ASCII.
    const pieces = [
      '',
      'a',
      ',',
      '"',
      '""',
      '\r',
      '\n',
      '\r\n',
      ' ',
      '=',
      '-',
      '-12.50',
      "'",
      'é',
      '🚀',
      'x,y',
      'q"q',
      '\t',
    ];
    let seed = 20;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % n;
    const cell = () => Array.from({ length: next(4) }, () => pieces[next(pieces.length)]).join('');
    for (const width of [1, 2, 5]) {
      const cols: CsvColumn<string[]>[] = Array.from({ length: width }, (_, i) => ({
        header: `H${i}`,
        value: (r) => r[i],
      }));
      const rows = Array.from({ length: 3_000 }, () => Array.from({ length: width }, cell));
      rows.push(Array.from({ length: width }, () => ''));
      const chunks: string[] = [];
      for await (const chunk of csvChunks(cols, rows)) chunks.push(chunk);
      chunks.shift(); // the header
      const cells = rows.map((row) => row.map((value) => csvCell(value)));
      expect(new Set(cells.flat()).size).toBeGreaterThan(500);
      const reference = stringify(cells, stringifyOptions(cols as CsvColumn<unknown>[]));
      expect(chunks.join('')).toBe(reference);
    }
  });

  it('quotes cells holding a bare LF or CR so they cannot split a row or smuggle a formula', async () => {
    const rows = [
      { description: '=1+1\n=2+2', vendor: '=1+1\n=2+2', amount: 5 },
      { description: 'a\rb', vendor: '\n=cmd', amount: 6 },
      { description: 'plain', vendor: 'x\ny', amount: 7 },
    ];
    const cols: CsvColumn<(typeof rows)[number]>[] = [
      { header: 'Description', value: (r) => r.description },
      { header: 'Vendor', value: (r) => r.vendor },
      { header: 'Amount', value: (r) => r.amount },
    ];
    const text = await collect(csvChunks(cols, rows));
    // No line of the file starts with a formula character: every break sits inside quotes.
    expect(text).toContain('"\'=1+1\n=2+2"');
    const expected = [
      ['Description', 'Vendor', 'Amount'],
      ["'=1+1\n=2+2", "'=1+1\n=2+2", '5'],
      ['a\rb', "'\n=cmd", '6'],
      ['plain', 'x\ny', '7'],
    ];
    // Parsed back by csv-parse (csv-stringify's sibling, as a spreadsheet would) and by the strict parser.
    expect(csvParse(text, { record_delimiter: '\r\n', relax_column_count: false })).toEqual(expected);
    expect(parseCsv(text)).toEqual(expected);
  });

  it('reads async iterables too, and writes only the header for no rows', async () => {
    async function* rows(): AsyncGenerator<Row> {
      yield { id: 1, name: 'a', amount: 1 };
      await new Promise((resolve) => setImmediate(resolve));
      yield { id: 2, name: 'b', amount: 2 };
    }
    expect(await collect(csvChunks(columns, rows()))).toBe('ID,Name,Amount\r\n1,a,1\r\n2,b,2\r\n');
    expect(await collect(csvChunks(columns, []))).toBe('ID,Name,Amount\r\n');
  });

  it('quotes and neutralises headers like cells', async () => {
    const text = await collect(
      csvChunks<number>(
        [
          { header: 'Net, EUR', value: (n) => n },
          { header: '=cmd', value: (n) => -n },
        ],
        [1],
      ),
    );
    expect(parseCsv(text)).toEqual([
      ['Net, EUR', "'=cmd"],
      ['1', '-1'],
    ]);
  });

  it('writes an empty cell of a one-column export as "" so the record is not a blank line', async () => {
    const text = await collect(csvChunks<string | null>([{ header: 'Note', value: (s) => s }], ['x', '', null]));
    expect(text).toBe('Note\r\nx\r\n""\r\n""\r\n');
    expect(parseCsv(text)).toEqual([['Note'], ['x'], [''], ['']]);
  });

  it('can start with a UTF-8 byte order mark', async () => {
    const text = await collect(csvChunks(columns, [{ id: 1, name: 'é', amount: 1 }], { bom: true }));
    expect(text).toBe('\uFEFFID,Name,Amount\r\n1,é,1\r\n');
    const bytes = new Uint8Array(await new Response(csvReadableStream(columns, [], { bom: true })).arrayBuffer());
    expect(Array.from(bytes.slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('yields the header first, then batches of at most CSV_BATCH_ROWS rows', async () => {
    const n = CSV_BATCH_ROWS * 2 + 5;
    const rows = Array.from({ length: n }, (_, i) => ({ id: i, name: 'x', amount: 1 }));
    const chunks: string[] = [];
    for await (const chunk of csvChunks(columns, rows)) chunks.push(chunk);
    expect(chunks[0]).toBe('ID,Name,Amount\r\n');
    expect(chunks.slice(1).map((c) => c.split('\r\n').length - 1)).toEqual([CSV_BATCH_ROWS, CSV_BATCH_ROWS, 5]);
  });

  it('cuts a batch early when its cells are large', async () => {
    const big = 'x'.repeat(40_000);
    const chunks: string[] = [];
    for await (const chunk of csvChunks(
      columns,
      [1, 2, 3, 4].map((id) => ({ id, name: big, amount: 1 })),
    ))
      chunks.push(chunk);
    expect(chunks.length).toBe(3); // header, rows 1-2 (over 64 KiB), rows 3-4
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(100_000);
  });

  it('rejects bad columns and reports failing column values with the row number', async () => {
    expect(() => csvChunks([], [])).toThrow(TypeError);
    expect(() => csvChunks(columns, null as any)).toThrow(TypeError);
    const failing: CsvColumn<number>[] = [
      { header: 'N', value: (n) => n },
      {
        header: 'Boom',
        value: (n) => {
          if (n === 2) throw new Error('bad row');
          return n;
        },
      },
    ];
    await expect(collect(csvChunks(failing, [1, 2, 3]))).rejects.toThrow('CSV column "Boom" failed on row 2: bad row');
  });

  it('closes the source when the consumer stops early', async () => {
    let closed = false;
    function* rows(): Generator<Row> {
      try {
        for (let id = 0; ; id++) yield { id, name: 'x', amount: 1 };
      } finally {
        closed = true;
      }
    }
    for await (const chunk of csvChunks(columns, rows())) {
      if (!chunk.startsWith('ID')) break;
    }
    expect(closed).toBe(true);
  });
});

describe('csvReadableStream', () => {
  it('streams the same text as UTF-8 bytes through a Response', async () => {
    const rows: Row[] = [
      { id: 1, name: 'Zürich 🚀, "quoted"', amount: '-12.50' },
      { id: 2, name: '=HYPERLINK("x")', amount: null },
    ];
    const expected = await collect(csvChunks(columns, rows));
    const response = new Response(csvReadableStream(columns, rows), { headers: csvDownloadHeaders('x.csv') });
    expect(await response.text()).toBe(expected);
    expect(parseCsv(expected)[2]).toEqual(['2', `'=HYPERLINK("x")`, '']);
  });

  it('pulls rows only as the consumer reads, and cancelling ends an infinite source', async () => {
    let produced = 0;
    let closed = false;
    async function* forever(): AsyncGenerator<Row> {
      try {
        for (let id = 0; ; id++) {
          produced++;
          yield { id, name: `row ${id}`, amount: id / 100 };
        }
      } finally {
        closed = true;
      }
    }
    const stream = csvReadableStream(columns, forever());
    await settle();
    expect(produced).toBe(0); // nothing read yet, nothing pulled

    const reader = stream.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('ID,Name,Amount\r\n');
    expect(produced).toBe(0); // the header needs no rows
    for (let i = 0; i < 2; i++) {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      expect(value!.byteLength).toBeGreaterThan(0);
    }
    await reader.cancel();
    expect(closed).toBe(true);
    const afterCancel = produced;
    expect(afterCancel).toBeGreaterThan(0);
    expect(afterCancel).toBeLessThanOrEqual(2 * CSV_BATCH_ROWS + 1);
    await settle();
    expect(produced).toBe(afterCancel);
  });

  it('errors the stream when the source throws', async () => {
    async function* rows(): AsyncGenerator<Row> {
      yield { id: 1, name: 'a', amount: 1 };
      throw new Error('database went away');
    }
    await expect(readStream(csvReadableStream(columns, rows()))).rejects.toThrow('database went away');
  });

  it('streams 200,000 rows in bounded chunks without building one big string', async () => {
    const N = 200_000;
    const line = (i: number) => `${i},"Supplier ${i}, Ltd",${(i % 1000) - 500}.${String(i % 100).padStart(2, '0')}\r\n`;
    function* rows(): Generator<{ id: number; supplier: string; amount: string }> {
      for (let i = 0; i < N; i++)
        yield {
          id: i,
          supplier: `Supplier ${i}, Ltd`,
          amount: `${(i % 1000) - 500}.${String(i % 100).padStart(2, '0')}`,
        };
    }
    const stream = csvReadableStream(
      [
        { header: 'id', value: (r) => r.id },
        { header: 'supplier', value: (r) => r.supplier },
        { header: 'amount', value: (r) => r.amount },
      ],
      rows(),
    );
    let expectedBytes = 'id,supplier,amount\r\n'.length;
    for (let i = 0; i < N; i++) expectedBytes += line(i).length; // all ASCII: chars = bytes

    // Check every line as it arrives, keeping only the unfinished tail of the text.
    const decoder = new TextDecoder();
    let bytes = 0;
    let chunks = 0;
    let largest = 0;
    let tail = '';
    let next = -1; // -1: the header
    for await (const chunk of chunksOf(stream)) {
      bytes += chunk.byteLength;
      chunks++;
      largest = Math.max(largest, chunk.byteLength);
      const lines = (tail + decoder.decode(chunk, { stream: true })).split('\r\n');
      tail = lines.pop()!;
      for (const l of lines) {
        expect(l + '\r\n').toBe(next === -1 ? 'id,supplier,amount\r\n' : line(next));
        next++;
      }
    }
    expect(tail).toBe('');
    expect(next).toBe(N);
    expect(bytes).toBe(expectedBytes);
    expect(chunks).toBeGreaterThanOrEqual(N / CSV_BATCH_ROWS);
    expect(largest).toBeLessThan(128 * 1024);
  });
});

describe('csvDownloadHeaders', () => {
  it('sets the content type, attachment name and no-store', () => {
    const headers = csvDownloadHeaders('actual-expenses-2026-11-22.csv');
    expect(headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(headers.get('Content-Disposition')).toBe('attachment; filename="actual-expenses-2026-11-22.csv"');
    expect(headers.get('Cache-Control')).toBe('no-store');
  });

  it('reduces dangerous names to a safe base name ending in .csv', () => {
    const disposition = (name: string) => csvDownloadHeaders(name).get('Content-Disposition');
    expect(disposition('../../etc/passwd')).toBe('attachment; filename="passwd.csv"');
    expect(disposition('C:\\temp\\report.CSV')).toBe('attachment; filename="report.csv"');
    expect(disposition('a"b\r\nSet-Cookie: x=1.csv')).toBe('attachment; filename="a_b Set-Cookie_ x=1.csv"');
    expect(disposition('..')).toBe('attachment; filename="export.csv"');
    expect(disposition('')).toBe('attachment; filename="export.csv"');
    expect(disposition('report')).toBe('attachment; filename="report.csv"');
    expect(disposition('x'.repeat(500))!.length).toBeLessThan(250);
  });

  it('sends non-ASCII names as filename* with an ASCII fallback', () => {
    expect(csvDownloadHeaders("Überweisungen 50% (Q1) €'s.csv").get('Content-Disposition')).toBe(
      `attachment; filename="_berweisungen 50_ (Q1) _'s.csv"; filename*=UTF-8''%C3%9Cberweisungen%2050%25%20%28Q1%29%20%E2%82%AC%27s.csv`,
    );
    expect(() => csvDownloadHeaders('bad \uD800 surrogate.csv')).not.toThrow();
  });
});

describe('exportFilename', () => {
  it('appends the UTC date and .csv', () => {
    expect(exportFilename('actual-expenses', new Date('2026-11-22T10:00:00Z'))).toBe('actual-expenses-2026-11-22.csv');
    expect(exportFilename('actual-expenses', new Date('2026-11-22T23:59:59Z'))).toBe('actual-expenses-2026-11-22.csv');
  });

  it('defaults to today', () => {
    expect(exportFilename('budgets')).toBe(`budgets-${new Date().toISOString().slice(0, 10)}.csv`);
  });

  it('slugs the base', () => {
    const d = new Date('2026-01-02T00:00:00Z');
    expect(exportFilename('Actual Revenues (Zürich)', d)).toBe('actual-revenues-zurich-2026-01-02.csv');
    expect(exportFilename('../../etc', d)).toBe('etc-2026-01-02.csv');
    expect(exportFilename('', d)).toBe('export-2026-01-02.csv');
  });
});
