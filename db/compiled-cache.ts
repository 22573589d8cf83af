// Queries of a fixed shape compiled once and run again with new values. Building and compiling
// a Kysely query (its node tree, the plugins' transforms, the SQL text) costs more than running
// it on SQLite; for the statements every request issues (the session, a list's total and page)
// that was a noticeable share of an API request (bench/README.md). The SQL depends on the dialect and
// the plugins, so the cache is per dialect and plugin set, and per shape key given by the caller.
import { type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';

interface Entry {
  compiled: CompiledQuery<unknown>;
  /** Where each value goes in the compiled parameters. */
  slots: number[];
}

const cache = new Map<string, Entry | null>();
/** Shapes are the callers' keys (few); a bound keeps a mistake from growing without end. */
const MAX_SHAPES = 500;

/**
 * Runs the query `build` makes for `values`. `build` gets stand-ins for the values and must give
 * a query whose shape (its SQL) depends only on `shape`: the first run compiles it with the
 * stand-ins and remembers where each lands among the parameters; later runs put the values
 * there and run the same SQL. A stand-in that does not appear exactly once as a parameter of
 * its own (a value used twice, or made into another value) makes that shape compile every
 * time, as without the cache. Values must not steer the building (`limit > 2 ? …`): that is
 * not detected.
 *
 * Every value that varies must be in `values` or in `shape`: anything else the query takes
 * from around it (a user's company, a date) would be kept from the first run for all others.
 */
export async function runCompiled<Row>(
  db: Kysely<any>,
  shape: string,
  values: readonly unknown[],
  build: (values: readonly unknown[]) => Compilable<Row>,
): Promise<Row[]> {
  const key = `${dialectOf(db)}|${db
    .getExecutor()
    .plugins.map((p) => p.constructor.name)
    .join(',')}|${shape}`;
  let entry = cache.get(key);
  if (entry === undefined) {
    // Two sets of stand-ins: a parameter made from a value (`${value}%`) differs between them.
    const standIns = (set: string) => values.map((_, i) => `\u0000${set} value ${i} of ${shape}\u0000`);
    const [a, b] = [standIns('a'), standIns('b')];
    const compiled = build(a).compile() as CompiledQuery<unknown>;
    const other = build(b).compile();
    const slots = a.map((s) => compiled.parameters.indexOf(s));
    const exact =
      other.sql === compiled.sql &&
      slots.every(
        (slot, i) => slot >= 0 && compiled.parameters.lastIndexOf(a[i]) === slot && other.parameters[slot] === b[i],
      ) &&
      compiled.parameters.every((p, i) => slots.includes(i) || p === other.parameters[i]);
    entry = exact ? { compiled, slots } : null;
    if (cache.size < MAX_SHAPES) cache.set(key, entry);
  }
  if (!entry) return (await db.executeQuery(build(values).compile())).rows as Row[];
  const parameters = [...entry.compiled.parameters];
  entry.slots.forEach((slot, i) => (parameters[slot] = values[i]));
  return (await db.executeQuery({ ...entry.compiled, parameters } as CompiledQuery<Row>)).rows;
}

/** Tests: the shapes seen so far whose query is compiled once (true) or every time (false). */
export function compiledShapes(): Map<string, boolean> {
  return new Map([...cache].map(([key, entry]) => [key.split('|').slice(2).join('|'), entry !== null]));
}
