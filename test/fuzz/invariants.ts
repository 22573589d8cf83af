// What must hold after every fuzz case (docs/writes.md, docs/api.md): no 5xx; no stack trace or SQL text in
// a response; a refused request changes nothing; an accepted write leaves as many versions as
// audit entries (exactly one of each where the route always writes); foreign keys hold, no
// orphan references, exactly one active version per record; no prototype pollution.
import { sql, type Kysely } from 'kysely';
import { RESOURCE_LIST } from '../../app/features/resources.ts';
import { companyColumnOf, referencedResource } from '../../app/platform/resources/define.ts';
import { snakeCase } from '../../app/platform/lib/names.ts';
import type { DialectName } from '../../db/dialect.ts';

/**
 * Rules added with a round of security fixes, each on by default; `=0` turns one
 * off to compare with an older build.
 */
export const KNOWN = {
  /** A non-GET request with neither Origin nor Referer is a 403 and changes nothing. */
  ORIGIN_REQUIRED: process.env.FUZZ_ORIGIN_REQUIRED !== '0',
  /** Bodies above 1 MB answer 413 before they are read. */
  BODY_LIMIT: process.env.FUZZ_BODY_LIMIT !== '0',
  /** A screen form's row id must be canonical digits: `1e3`, `0x3e9`, ` 1001 ` name no row. */
  STRICT_FORM_IDS: process.env.FUZZ_STRICT_FORM_IDS !== '0',
};

/** Above the documented body limit of 1 MB (docs/security.md). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Tables whose row counts a refused request must leave as they were. */
export const COUNTED_TABLES = [
  ...RESOURCE_LIST.map((def) => def.table),
  'users',
  'userSettings',
  'auditLogs',
  'dataVersions',
] as const;

export type Counts = Record<string, number>;

/** Baseline versions (a row's state before its first versioned change) come with no audit entry of their own. */
const BASELINE_VERSIONS = `(select count(*) from data_versions where action = 'baseline') as "baselineVersions"`;

/** Row counts of the counted tables (and the baseline versions), in one query. */
export async function snapshot(db: Kysely<any>): Promise<Counts> {
  const parts = [
    ...COUNTED_TABLES.map((t) => `(select count(*) from ${snakeCase(t)}) as "${t}"`),
    BASELINE_VERSIONS,
  ].join(', ');
  const { rows } = await sql.raw<Record<string, unknown>>(`select ${parts}`).execute(db);
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
}

export function changedCounts(before: Counts, after: Counts): string[] {
  return Object.keys(before)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k]} → ${after[k]}`);
}

/** Text that must never reach a client: stack frames, driver errors, SQL, server paths. */
export const LEAK_PATTERNS: readonly RegExp[] = [
  /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|node:|\/)[^\s)]*:\d+:\d+/,
  /SqliteError|SQLITE_[A-Z]+/,
  /syntax error/i,
  /\bSELECT\s+(?:\*|"|\w+\s*,|count\()/,
  /\binsert into\b/i,
  /\bdelete from\b/i,
  /node_modules/,
  /ZodError|TypeError:|ReferenceError:|RangeError:/,
  /violates (?:foreign key|unique|not-null|check) constraint/,
  /invalid input syntax|duplicate key value|out of range for type/,
  /\/work\/|\/tmp\/finhub/,
];

export function leakIn(text: string): RegExp | undefined {
  return LEAK_PATTERNS.find((p) => p.test(text));
}

/** One count per reference column (declared reference fields, company columns, users' company, settings' user). */
const ORPHAN_COUNTS = (() => {
  const checks = new Map<string, [string, string, string]>();
  const add = (table: string, column: string, target: string) =>
    checks.set(`${table}.${column}`, [snakeCase(table), snakeCase(column), snakeCase(target)]);
  for (const def of RESOURCE_LIST) {
    for (const f of def.fields) if (f.kind === 'reference') add(def.table, f.name, referencedResource(f).table);
    if (companyColumnOf(def) === 'companyId') add(def.table, 'companyId', 'companies');
  }
  add('users', 'companyId', 'companies');
  add('userSettings', 'userId', 'users');
  return [...checks.entries()].map(
    ([what, [t, c, r]]) =>
      `(select count(*) from ${t} x where x.${c} is not null and not exists (select 1 from ${r} y where y.id = x.${c})) as "orphans ${what}"`,
  );
})();
const BAD_VERSIONS = `(select count(*) from (select 1 as one from data_versions group by table_name, record_id having sum(case when is_active then 1 else 0 end) <> 1) v) as "records without exactly one active version"`;

/**
 * The counts after a case and the broken global invariants (foreign keys, orphan references,
 * active versions), in one round trip (plus SQLite's foreign_key_check). Problems empty when all hold.
 */
export async function countsAndViolations(
  db: Kysely<any>,
  dialect: DialectName,
): Promise<{ counts: Counts; problems: string[] }> {
  const columns = [
    ...COUNTED_TABLES.map((t) => `(select count(*) from ${snakeCase(t)}) as "${t}"`),
    BASELINE_VERSIONS,
    ...ORPHAN_COUNTS,
    BAD_VERSIONS,
  ];
  const { rows } = await sql.raw<Record<string, unknown>>(`select ${columns.join(', ')}`).execute(db);
  const counts: Counts = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(rows[0])) {
    if ((COUNTED_TABLES as readonly string[]).includes(key) || key === 'baselineVersions') counts[key] = Number(value);
    else if (Number(value) !== 0) problems.push(`${key}: ${value}`);
  }
  if (problems.some((p) => p.startsWith('records without'))) {
    const { rows: versions } =
      await sql`select table_name, record_id, sum(case when is_active then 1 else 0 end) as active from data_versions
      group by table_name, record_id having sum(case when is_active then 1 else 0 end) <> 1`.execute(db);
    problems.push(JSON.stringify(versions.slice(0, 5)));
  }
  if (dialect === 'sqlite') {
    const { rows: fk } = await sql`pragma foreign_key_check`.execute(db);
    if (fk.length) problems.push(`foreign_key_check: ${JSON.stringify(fk.slice(0, 5))}`);
  }
  return { counts, problems };
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

/** The server runs in this process: a polluted Object.prototype would show here. */
export function prototypePolluted(): string | null {
  const now = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  if (now !== PROTOTYPE_KEYS) return `Object.prototype keys changed: ${now}`;
  if (({} as Record<string, unknown>).polluted !== undefined) return 'Object.prototype.polluted is set';
  return null;
}
