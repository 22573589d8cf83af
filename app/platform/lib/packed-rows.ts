// A list screen's rows travel in the hydration data as one key list and a value array per row:
// the keys would otherwise be written again for every row (~100 bytes a row on Actual Expenses).

export type ScreenRow = Record<string, unknown> & { id: number };
/** A row of type R with some of its keys: those packed (always its id). */
export type PartialRow<R extends ScreenRow> = Partial<R> & Pick<R, 'id'>;

export interface PackedRows<R extends ScreenRow = ScreenRow> {
  keys: string[];
  values: unknown[][];
  /** Never set: the rows' type, for `unpackRows`. */
  rowType?: R;
}

/** Rows as keys and value arrays (`keys` with 'id'); a key any row has is kept, a row without it gets null. */
export function packRows<R extends ScreenRow>(rows: readonly R[], keys: readonly string[]): PackedRows<PartialRow<R>> {
  const present = keys.filter((key) => rows.some((row) => key in row));
  return { keys: present, values: rows.map((row) => present.map((key) => row[key] ?? null)) };
}

export function unpackRows<R extends ScreenRow>({ keys, values }: PackedRows<R>): R[] {
  return values.map((value) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i]] = value[i];
    return row as R;
  });
}
