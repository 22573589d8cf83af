// The money figures screens and AI read, kept by row triggers in the writer's own transaction (as
// row_counts and day_counts are), so no page view sums the books:
// - expense_month_totals: per company, department, category and month, the cents and rows of
//   actual expenses; revenue_month_totals the same per company, source and month of actual revenue.
// - budget_month_plans: per company, department, category and month, the ONE plan of that month;
//   projection_month_plans the same per company, source and month from revenue projections.
//   The plan of a month is the most specific active row covering it (monthly over quarterly over
//   annual; among rows of the same period the latest id), never two added. A row covering
//   several months is spread evenly over its months (not its days): month k of n gets
//   ⌊A·(k+1)/n⌋ − ⌊A·k/n⌋ cents, so the months add up to the amount exactly. Which row was chosen,
//   its period and its number of months are kept, so screens can say where a plan comes from.
// Months are 'YYYY-MM' text on both dialects. A load that bypasses the triggers (a bulk restore,
// `finhub db generate`) builds the tables again from the rows: aggregateRebuildStatements.
import { sql, type Kysely } from 'kysely';
import { dialectOf, triggerSchema, type DialectName } from './dialect.ts';
import { insertsByStatement } from './statement-inserts.ts';

/** The source table of each maintained aggregate (snake_case). */
export const AGGREGATED: Readonly<Record<string, string>> = {
  actual_expenses: 'expense_month_totals',
  actual_revenue: 'revenue_month_totals',
  budgets: 'budget_month_plans',
  revenue_projections: 'projection_month_plans',
};

/** The aggregate tables (snake_case): derived, never backed up. */
export const AGGREGATE_TABLES = Object.values(AGGREGATED);

/** What the status column must say for a plan to count (docs/plans.md). */
export const PLAN_STATUS = 'active';
/** Period order of the plan rule: a lower rank is more specific. */
export const PERIOD_RANK = { monthly: 0, quarterly: 1, annual: 2 } as const;

interface Totals {
  kind: 'totals';
  source: string;
  target: string;
  key: string[];
  date: string;
}
interface Plans {
  kind: 'plans';
  source: string;
  target: string;
  key: string[];
  /** The column naming the chosen row. */
  chosen: string;
}
type Aggregate = Totals | Plans;

const AGGREGATES: Record<string, Aggregate> = {
  actual_expenses: {
    kind: 'totals',
    source: 'actual_expenses',
    target: 'expense_month_totals',
    key: ['company_id', 'department_id', 'category_id'],
    date: 'expense_date',
  },
  actual_revenue: {
    kind: 'totals',
    source: 'actual_revenue',
    target: 'revenue_month_totals',
    key: ['company_id', 'source'],
    date: 'revenue_date',
  },
  budgets: {
    kind: 'plans',
    source: 'budgets',
    target: 'budget_month_plans',
    key: ['company_id', 'department_id', 'category_id'],
    chosen: 'budget_id',
  },
  revenue_projections: {
    kind: 'plans',
    source: 'revenue_projections',
    target: 'projection_month_plans',
    key: ['company_id', 'source'],
    chosen: 'projection_id',
  },
};

/** Primary keys lead with the company and the month: screens read one company's (or every company's) months. */
const primaryKey = (a: Aggregate) => ['company_id', 'month', ...a.key.slice(1)];

// ---------------------------------------------------------------------------------------------
// SQL pieces per dialect

const monthOf = (dialect: DialectName, day: string) =>
  dialect === 'postgres' ? `to_char(${day}, 'YYYY-MM')` : `substr(${day}, 1, 7)`;
/** Months since year 0 of a day: differences count calendar months. */
const monthNumber = (dialect: DialectName, day: string) =>
  dialect === 'postgres'
    ? `(extract(year from ${day})::int * 12 + extract(month from ${day})::int)`
    : `(cast(substr(${day}, 1, 4) as integer) * 12 + cast(substr(${day}, 6, 2) as integer))`;
/** How many calendar months row `r` covers. */
const monthsCovered = (dialect: DialectName, r: string) =>
  `(${monthNumber(dialect, `${r}.end_date`)} - ${monthNumber(dialect, `${r}.start_date`)} + 1)`;
/** The cents of row `r` falling in its month `k` (0-based) of n: the months add up to the amount exactly. */
const monthShare = (dialect: DialectName, r: string, k: string) => {
  const n = monthsCovered(dialect, r);
  // PostgreSQL: in numeric, since amount × months can pass bigint for amounts a restore may hold.
  if (dialect === 'postgres')
    return `(div(${r}.amount_cents::numeric * (${k} + 1), ${n}) - div(${r}.amount_cents::numeric * ${k}, ${n}))`;
  return `((${r}.amount_cents * (${k} + 1)) / ${n} - (${r}.amount_cents * ${k}) / ${n})`;
};
/** The 'YYYY-MM' of month `k` (0-based) of the months row `r` covers. */
const coveredMonth = (dialect: DialectName, r: string, k: string) =>
  dialect === 'postgres'
    ? `to_char(date_trunc('month', ${r}.start_date::timestamp) + make_interval(months => ${k}), 'YYYY-MM')`
    : `strftime('%Y-%m', ${r}.start_date, 'start of month', '+' || ${k} || ' months')`;
const periodRank = (r: string) =>
  `case ${r}.period when 'monthly' then ${PERIOD_RANK.monthly} when 'quarterly' then ${PERIOD_RANK.quarterly} else ${PERIOD_RANK.annual} end`;

// ---------------------------------------------------------------------------------------------
// Rebuild (from the rows, for loads with the triggers off)

/** The statements that build a table's aggregate again from its rows (none for other tables). */
export function aggregateRebuildStatements(table: string, dialect: DialectName): string[] {
  const a = AGGREGATES[table];
  if (!a) return [];
  const key = a.key.join(', ');
  if (a.kind === 'totals') {
    return [
      `delete from ${a.target}`,
      `insert into ${a.target} (${key}, month, amount_cents, row_count)
        select ${key}, ${monthOf(dialect, a.date)}, sum(amount_cents), count(*) from ${a.source} group by ${key}, ${monthOf(dialect, a.date)}`,
    ];
  }
  const columns = `${key}, month, ${a.chosen}, period, months, amount_cents`;
  const ranked = (months: string, k: string) => `
    select ${a.key.map((c) => `c.${c}`).join(', ')}, ${months} as month, c.id as chosen, c.period, ${monthsCovered(dialect, 'c')} as months, ${monthShare(dialect, 'c', k)} as amount_cents,
      row_number() over (partition by ${a.key.map((c) => `c.${c}`).join(', ')}, ${months} order by ${periodRank('c')}, c.id desc) as pick`;
  const expanded =
    dialect === 'postgres'
      ? `${ranked(coveredMonth(dialect, 'c', 'k'), 'k')}
        from ${a.source} c cross join lateral generate_series(0, ${monthsCovered(dialect, 'c')} - 1) as k
        where c.status = '${PLAN_STATUS}'`
      : `${ranked(coveredMonth(dialect, 'c', 'e.k'), 'e.k')}
        from expansion e join ${a.source} c on c.id = e.id`;
  const withExpansion =
    dialect === 'postgres'
      ? ''
      : `with recursive expansion(id, k) as (
          select id, 0 from ${a.source} where status = '${PLAN_STATUS}'
          union all
          select e.id, e.k + 1 from expansion e join ${a.source} c on c.id = e.id where e.k + 1 < ${monthsCovered(dialect, 'c')}
        ) `;
  return [
    `delete from ${a.target}`,
    `insert into ${a.target} (${columns})
      ${withExpansion}select ${key}, month, chosen, period, months, amount_cents from (${expanded}) as ranked where pick = 1`,
  ];
}

/** Builds the aggregates of these source tables (default: all) again from their rows. */
export async function rebuildAggregates(
  db: Kysely<any>,
  tables: readonly string[] = Object.keys(AGGREGATES),
): Promise<void> {
  const dialect = dialectOf(db);
  for (const table of tables)
    for (const statement of aggregateRebuildStatements(table, dialect)) await sql.raw(statement).execute(db);
}

// ---------------------------------------------------------------------------------------------
// Tables and triggers (migration 0022's step)

async function createTable(db: Kysely<any>, dialect: DialectName, a: Aggregate): Promise<void> {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  // Sums of many bigint amounts can pass bigint's range (rows a restore wrote past the screens'
  // limit): PostgreSQL keeps them in numeric; SQLite's integer arithmetic turns real instead.
  const cents = dialect === 'postgres' ? 'numeric(38, 0)' : 'integer';
  const keyColumns = a.key.map((c) => `${c} ${c === 'source' ? 'varchar(255)' : 'integer'} not null`);
  const figures =
    a.kind === 'totals'
      ? [`amount_cents ${cents} not null`, `row_count ${bigint} not null`]
      : [
          `${a.chosen} integer not null`,
          'period varchar(20) not null',
          'months integer not null',
          `amount_cents ${cents} not null`,
        ];
  await sql
    .raw(
      `create table ${a.target} (${[...keyColumns, 'month char(7) not null', ...figures].join(', ')},
    primary key (${primaryKey(a).join(', ')}))${dialect === 'sqlite' ? ' without rowid' : ''}`,
    )
    .execute(db);
}

/** SQLite: the statements of a totals trigger adding (sign +) or removing (−) row `r`. */
function sqliteTotals(a: Totals, r: 'new' | 'old', sign: 1 | -1): string {
  const match = [...a.key, 'month']
    .map((c) => `${c} = ${c === 'month' ? monthOf('sqlite', `${r}.${a.date}`) : `${r}.${c}`}`)
    .join(' and ');
  if (sign === 1) {
    return `insert into ${a.target} (${a.key.join(', ')}, month, amount_cents, row_count)
        values (${a.key.map((c) => `${r}.${c}`).join(', ')}, ${monthOf('sqlite', `${r}.${a.date}`)}, ${r}.amount_cents, 1)
        on conflict (${primaryKey(a).join(', ')}) do update set amount_cents = amount_cents + excluded.amount_cents, row_count = row_count + 1;`;
  }
  return `update ${a.target} set amount_cents = amount_cents - ${r}.amount_cents, row_count = row_count - 1 where ${match};
      delete from ${a.target} where ${match} and row_count <= 0;`;
}

/** SQLite: the statements choosing again the plans of row `r`'s key in the months it covers. */
function sqlitePlans(a: Plans, r: 'new' | 'old'): string {
  const sameKey = (alias: string) => a.key.map((c) => `${alias}${c} = ${r}.${c}`).join(' and ');
  return `delete from ${a.target} where ${sameKey('')} and month between substr(${r}.start_date, 1, 7) and substr(${r}.end_date, 1, 7);
      insert into ${a.target} (${a.key.join(', ')}, month, ${a.chosen}, period, months, amount_cents)
      with recursive covered(day1) as (
        select date(${r}.start_date, 'start of month')
        union all
        select date(day1, '+1 month') from covered where day1 < date(${r}.end_date, 'start of month')
      ), chosen(day1, id) as (
        select day1, (select c.id from ${a.source} c where ${sameKey('c.')} and c.status = '${PLAN_STATUS}'
          and c.start_date <= date(day1, '+1 month', '-1 day') and c.end_date >= day1
          order by ${periodRank('c')}, c.id desc limit 1) from covered
      )
      select ${a.key.map((c) => `c.${c}`).join(', ')}, substr(p.day1, 1, 7), c.id, c.period, ${monthsCovered('sqlite', 'c')},
        ${monthShare('sqlite', 'c', `(${monthNumber('sqlite', 'p.day1')} - ${monthNumber('sqlite', 'c.start_date')})`)}
      from chosen p join ${a.source} c on c.id = p.id;`;
}

const watched = (a: Aggregate) =>
  a.kind === 'totals'
    ? [...a.key, 'amount_cents', a.date]
    : [...a.key, 'amount_cents', 'period', 'start_date', 'end_date', 'status'];

async function sqliteTriggers(db: Kysely<any>, a: Aggregate): Promise<void> {
  const columns = watched(a);
  const changed = columns.map((c) => `old.${c} is not new.${c}`).join(' or ');
  const add = (r: 'new' | 'old') => (a.kind === 'totals' ? sqliteTotals(a, r, 1) : sqlitePlans(a, r));
  const remove = (r: 'new' | 'old') => (a.kind === 'totals' ? sqliteTotals(a, r, -1) : sqlitePlans(a, r));
  await sql
    .raw(`create trigger ${a.source}_${a.target}_insert after insert on ${a.source} begin ${add('new')} end`)
    .execute(db);
  await sql
    .raw(`create trigger ${a.source}_${a.target}_delete after delete on ${a.source} begin ${remove('old')} end`)
    .execute(db);
  await sql
    .raw(
      `create trigger ${a.source}_${a.target}_update after update of ${columns.join(', ')} on ${a.source}
    when ${changed} begin ${remove('old')} ${add('new')} end`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<any>, schema: string, a: Aggregate): Promise<void> {
  const target = `${schema}.${a.target}`;
  let body: string;
  if (a.kind === 'totals') {
    const month = (r: string) => monthOf('postgres', `${r}.${a.date}`);
    const match = [...a.key.map((c) => `${c} = old.${c}`), `month = ${month('old')}`].join(' and ');
    body = `
        if tg_op <> 'INSERT' then
          update ${target} set amount_cents = amount_cents - old.amount_cents, row_count = row_count - 1 where ${match};
          delete from ${target} where ${match} and row_count <= 0;
        end if;
        if tg_op <> 'DELETE' then
          insert into ${target} (${a.key.join(', ')}, month, amount_cents, row_count) values (${a.key.map((c) => `new.${c}`).join(', ')}, ${month('new')}, new.amount_cents, 1)
            on conflict (${primaryKey(a).join(', ')}) do update set amount_cents = ${a.target}.amount_cents + excluded.amount_cents, row_count = ${a.target}.row_count + 1;
        end if;`;
  } else {
    const refresh = `${schema}.${a.target}_refresh`;
    const params = a.key.map((c) => `p_${c} ${c === 'source' ? 'text' : 'integer'}`).join(', ');
    await sql
      .raw(
        `
      create function ${refresh}(${params}, p_first date, p_last date) returns void language sql as $$
        delete from ${target} where ${a.key.map((c) => `${c} = p_${c}`).join(' and ')}
          and month between to_char(p_first, 'YYYY-MM') and to_char(p_last, 'YYYY-MM');
        insert into ${target} (${a.key.join(', ')}, month, ${a.chosen}, period, months, amount_cents)
        select distinct on (m.day1) ${a.key.map((c) => `c.${c}`).join(', ')}, to_char(m.day1, 'YYYY-MM'), c.id, c.period, ${monthsCovered('postgres', 'c')},
          ${monthShare('postgres', 'c', `(${monthNumber('postgres', 'm.day1')} - ${monthNumber('postgres', 'c.start_date')})`)}
        from generate_series(date_trunc('month', p_first::timestamp), date_trunc('month', p_last::timestamp), interval '1 month') as m(day1)
        join ${schema}.${a.source} c on ${a.key.map((k) => `c.${k} = p_${k}`).join(' and ')} and c.status = '${PLAN_STATUS}'
          and c.start_date <= (m.day1 + interval '1 month' - interval '1 day')::date and c.end_date >= m.day1::date
        order by m.day1, ${periodRank('c')}, c.id desc;
      $$`,
      )
      .execute(db);
    const call = (r: string) =>
      `perform ${refresh}(${a.key.map((c) => `${r}.${c}`).join(', ')}, ${r}.start_date, ${r}.end_date);`;
    body = `
        if tg_op <> 'INSERT' then ${call('old')} end if;
        if tg_op <> 'DELETE' then ${call('new')} end if;`;
  }
  const fn = `${schema}.${a.source}_${a.target}`;
  await sql
    .raw(
      `create function ${fn}() returns trigger language plpgsql as $$
      begin ${body}
        return null;
      end $$`,
    )
    .execute(db);
  const columns = watched(a);
  await sql
    .raw(
      `create trigger ${a.source}_${a.target} after insert or delete on ${a.source} for each row execute function ${fn}()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${a.source}_${a.target}_update after update of ${columns.join(', ')} on ${a.source} for each row
    when (${columns.map((c) => `old.${c} is distinct from new.${c}`).join(' or ')}) execute function ${fn}()`,
    )
    .execute(db);
}

/** Creates the aggregate tables, their triggers, an index for choosing budgets, and fills them. */
export async function createAggregates(db: Kysely<any>, dialect: DialectName): Promise<void> {
  // A plan is chosen among the rows of one key covering a month.
  await sql.raw('create index budgets_plan_key_idx on budgets (category_id, department_id, start_date)').execute(db);
  await sql
    .raw('create index revenue_projections_plan_key_idx on revenue_projections (company_id, source, start_date)')
    .execute(db);
  let schema = '';
  if (dialect === 'postgres') {
    // Qualified with this schema: the functions run with whatever search_path the writer has.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    schema = sql.id(rows[0].schema).compile(db).sql;
  }
  for (const a of Object.values(AGGREGATES)) {
    await createTable(db, dialect, a);
    if (dialect === 'postgres') await postgresTriggers(db, schema, a);
    else await sqliteTriggers(db, a);
  }
  await rebuildAggregates(db);
}

// ---------------------------------------------------------------------------------------------
// Inserts (migration 0044's step)

/**
 * Whether the plan row just offered (`excluded`) beats the month's chosen row `current` by the
 * plan rule. A new row can only win months, never take one from another row, so an insert
 * compares it with each covered month's chosen row instead of choosing again from every row of
 * its key (which cost more the more rows the key had).
 */
const beats = (a: Plans, current: string) =>
  `${periodRank('excluded')} < ${periodRank(current)} or (${periodRank('excluded')} = ${periodRank(current)} and excluded.${a.chosen} > ${current}.${a.chosen})`;

/** SQLite: the insert trigger of a plans aggregate, comparing the new row with each month's chosen row. */
function sqlitePlanInsert(a: Plans): string {
  const n = monthsCovered('sqlite', 'new');
  return `create trigger ${a.source}_${a.target}_insert after insert on ${a.source} when new.status = '${PLAN_STATUS}' begin
    insert into ${a.target} (${a.key.join(', ')}, month, ${a.chosen}, period, months, amount_cents)
    with recursive covered(k) as (select 0 union all select k + 1 from covered where k + 1 < ${n})
    select ${a.key.map((c) => `new.${c}`).join(', ')}, ${coveredMonth('sqlite', 'new', 'k')},
      new.id, new.period, ${n}, ${monthShare('sqlite', 'new', 'k')}
    from covered where true
    on conflict (${primaryKey(a).join(', ')}) do update set ${a.chosen} = excluded.${a.chosen}, period = excluded.period,
      months = excluded.months, amount_cents = excluded.amount_cents
    where ${beats(a, a.target)};
  end`;
}

/** PostgreSQL: what a statement's new rows (`inserted`) add to an aggregate, one write per key and month. */
function postgresInserted(schema: string, a: Aggregate): string {
  const target = `${schema}.${a.target}`;
  const key = a.key.join(', ');
  const conflict = `on conflict (${primaryKey(a).join(', ')}) do update set`;
  if (a.kind === 'totals') {
    const month = monthOf('postgres', a.date);
    return `insert into ${target} as t (${key}, month, amount_cents, row_count)
      select ${key}, ${month}, sum(amount_cents), count(*) from inserted group by ${key}, ${month} order by ${key}, ${month}
      ${conflict} amount_cents = t.amount_cents + excluded.amount_cents, row_count = t.row_count + excluded.row_count`;
  }
  const pk = primaryKey(a).join(', ');
  return `insert into ${target} as t (${key}, month, ${a.chosen}, period, months, amount_cents)
    select distinct on (${pk}) ${key}, month, chosen, period, months, amount_cents from (
      select ${a.key.map((c) => `c.${c}`).join(', ')},
        ${coveredMonth('postgres', 'c', 'k')} as month,
        c.id as chosen, c.period, ${monthsCovered('postgres', 'c')} as months, ${monthShare('postgres', 'c', 'k')} as amount_cents,
        ${periodRank('c')} as rank
      from inserted c cross join lateral generate_series(0, ${monthsCovered('postgres', 'c')} - 1) as k
      where c.status = '${PLAN_STATUS}'
    ) as offered order by ${pk}, rank, chosen desc
    ${conflict} ${a.chosen} = excluded.${a.chosen}, period = excluded.period, months = excluded.months, amount_cents = excluded.amount_cents
    where ${beats(a, 't')}`;
}

/**
 * Inserts cost the same whatever the table holds: a plan row is compared with the months' chosen
 * rows (both dialects), and on PostgreSQL a statement's rows are added to each aggregate in one
 * grouped write (db/statement-inserts.ts).
 */
export async function aggregateInsertsByStatement(db: Kysely<any>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    for (const a of Object.values(AGGREGATES)) {
      if (a.kind !== 'plans') continue;
      await sql.raw(`drop trigger ${a.source}_${a.target}_insert`).execute(db);
      await sql.raw(sqlitePlanInsert(a)).execute(db);
    }
    return;
  }
  const schema = await triggerSchema(db);
  for (const a of Object.values(AGGREGATES)) {
    await insertsByStatement(db, schema, {
      table: a.source,
      trigger: `${a.source}_${a.target}`,
      rowFunction: `${schema}.${a.source}_${a.target}`,
      statementFunction: `${schema}.${a.source}_${a.target}_inserted`,
      body: postgresInserted(schema, a),
    });
  }
}
