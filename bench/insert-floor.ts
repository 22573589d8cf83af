// The floor under an import's speed: what the database itself takes to store the rows an import
// just wrote (each budget row, its audit entry and its version, the same bytes) with bare
// multi-row INSERTs from rows already in memory (db/generate-bulk.ts: 100 rows a statement on
// SQLite, one unnest statement a batch on PostgreSQL), no parsing, checks or JSON building. Run
// twice, with the tables' triggers (what the import pays for counts and aggregates) and without,
// each in a transaction rolled back. No import can be faster than the first figure.
import {
  AUDIT_SINK,
  postgresConn,
  sqliteConn,
  VERSIONS_SINK,
  type Cell,
  type Conn,
  type Sink,
} from '../db/generate-bulk.ts';

const BATCH = 500;
const COPY_OFFSET = 1_000_000_000;

const SINKS: Sink[] = [
  {
    table: 'budgets',
    columns: [
      ['company_id', 'int'],
      ['department_id', 'int'],
      ['category_id', 'int'],
      ['amount_cents', 'bigint'],
      ['period', 'text'],
      ['start_date', 'date'],
      ['end_date', 'date'],
      ['description', 'text'],
      ['status', 'text'],
      ['created_by', 'int'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
  },
  AUDIT_SINK,
  VERSIONS_SINK,
];

export interface FloorResult {
  rows: number;
  withTriggers: number;
  withoutTriggers: number;
}

type Open = () => Promise<{ conn: Conn; rollback: () => Promise<void> }>;

/** Times storing again the last `rows` budgets (with their audit entries and versions) written after `afterId`. */
export async function insertFloor(
  dialect: 'sqlite' | 'postgres',
  location: string,
  afterId: number,
  rows: number,
): Promise<FloorResult> {
  const open: Open =
    dialect === 'sqlite'
      ? async () => {
          const conn = sqliteConn(location);
          await conn.run('BEGIN');
          return { conn, rollback: () => conn.run('ROLLBACK').then(() => conn.end(false)) };
        }
      : async () => {
          const conn = await postgresConn(location); // in a transaction from the start
          return { conn, rollback: () => conn.end(false) };
        };
  const data = await read(open, dialect, afterId, rows);
  const time = async (triggers: boolean) => {
    const { conn, rollback } = await open();
    try {
      if (!triggers) for (const sink of SINKS) await conn.dropTriggers(sink.table);
      const started = performance.now();
      for (let i = 0; i < data.length; i += BATCH)
        for (const [s, sink] of SINKS.entries())
          await conn.insert(
            sink,
            data.slice(i, i + BATCH).map((r) => r[s]),
          );
      return data.length / ((performance.now() - started) / 1000);
    } finally {
      await rollback();
    }
  };
  return { rows: data.length, withTriggers: await time(true), withoutTriggers: await time(false) };
}

/** The rows as stored: per budget, its row, its audit entry and its version, as cells. */
async function read(open: Open, dialect: 'sqlite' | 'postgres', afterId: number, rows: number): Promise<Cell[][][]> {
  const { conn, rollback } = await open();
  try {
    const text = (c: string, type: string) =>
      dialect === 'postgres' && (type === 'jsonb' || type === 'date' || type === 'timestamptz') ? `${c}::text` : c;
    const select = async (sink: Sink, where: string) =>
      (await conn.all(
        `SELECT ${sink.columns.map(([c, t]) => `${text(c, t)} AS ${c}`).join(', ')} FROM ${sink.table} WHERE ${where} ORDER BY id LIMIT ${rows}`,
        [afterId],
      )) as Record<string, Cell>[];
    const [budgets, audits, versions] = [
      await select(SINKS[0], 'id > ?'),
      await select(SINKS[1], "table_name = 'budgets' AND record_id > ?"),
      await select(SINKS[2], "table_name = 'budgets' AND record_id > ?"),
    ];
    // The copies' entries and versions name records no row has (a version is unique per record).
    const cells = (sink: Sink, row: Record<string, Cell>) =>
      sink.columns.map(([c]) => (c === 'record_id' ? Number(row[c]) + COPY_OFFSET : row[c]));
    return budgets.map((b, i) => [cells(SINKS[0], b), cells(SINKS[1], audits[i]), cells(SINKS[2], versions[i])]);
  } finally {
    await rollback();
  }
}
