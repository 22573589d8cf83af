// A list screen's rows travel in the hydration data as one key list and a value array per row:
// the keys would otherwise be written again for every row (~100 bytes a row on Actual Expenses).

export interface PackedRows {
  keys: string[];
  values: unknown[][];
}

export type ScreenRow = Record<string, unknown> & { id: number };

/** Rows as keys and value arrays; a key any row has is kept, a row without it gets null. */
export function packRows(rows: readonly Record<string, unknown>[], keys: readonly string[]): PackedRows {
  const present = keys.filter((key) => rows.some((row) => key in row));
  return { keys: present, values: rows.map((row) => present.map((key) => row[key] ?? null)) };
}

export function unpackRows({ keys, values }: PackedRows): ScreenRow[] {
  return values.map((value) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) row[keys[i]] = value[i];
    return row as ScreenRow;
  });
}
