// One Network's figures are stored once: the per-company rows of broadband_connections,
// mobile_subscriptions and mobile_access_methods, one per company, month and type. The monthly
// records of the One Network Subscriptions screen (network_broadband_records,
// network_subscription_patterns, network_access_records) become views that pivot those rows by
// month, and no table keeps a total or a share any more: both are computed from the counts
// when read (app/resources). A month that only the old monthly tables held is folded into the
// per-company rows first; where both held a month, the per-company rows are kept (they carry
// each type's own new and churn counts, and revenue) and the monthly copy is dropped, with its
// typed total and shares.
import { sql, type Kysely } from 'kysely';

const PER_TYPE = ['broadband_connections', 'mobile_subscriptions', 'mobile_access_methods'] as const;
const MONTHLY = ['network_broadband_records', 'network_subscription_patterns', 'network_access_records'] as const;

const missing = (table: string) =>
  `not exists (select 1 from ${table} x where x.company_id = r.company_id and x.year = r.year and x.month = r.month)`;

const folded =
  'exists (select 1 from fold_months f where f.company_id = r.company_id and f.year = r.year and f.month = r.month)';

/** Part of a month's new or churn total in proportion to a type's count (the remainder goes to the first type). */
const shareOf = (total: string, part: string, whole: string) =>
  `case when ${whole} > 0 then (${total} * ${part}) / ${whole} else 0 end`;

/** The monthly tables a fold reads: the retired tables themselves, or a restore's copies of a backup's rows. */
export interface MonthlySources {
  broadband: string;
  patterns: string;
  access: string;
}

/** Each monthly table's count columns (as in the backup files: camelCase), 0 when a row lacks one. */
export const MONTHLY_COUNTS = {
  networkBroadbandRecords: ['fixedBroadband', 'fixedFwa5gRouter', 'newConnections', 'churnConnections'],
  networkSubscriptionPatterns: ['daily', 'weekly', 'monthly'].flatMap((c) => [
    `${c}Subscriptions`,
    `${c}New`,
    `${c}Churn`,
  ]),
  networkAccessRecords: ['mifiDevices', 'simCards', 'eSim', 'fwaMobile'],
} as const;

export async function up(db: Kysely<any>): Promise<void> {
  await foldMonthlyRecords(db, { broadband: MONTHLY[0], patterns: MONTHLY[1], access: MONTHLY[2] });
  for (const table of MONTHLY) await db.schema.dropTable(table).execute();
  for (const table of PER_TYPE)
    await db.schema.alterTable(table).dropColumn('percentage_of_total_hundredths').execute();
  await createViews(db);
}

/**
 * Adds to the per-company rows each month that only the monthly tables hold (a month both hold
 * keeps its per-company rows). New and churn totals are split between the broadband types in
 * proportion to their counts.
 */
export async function foldMonthlyRecords(db: Kysely<any>, from: MonthlySources): Promise<void> {
  const tracking = 'r.created_by, r.created_at, r.updated_at';
  const fwaNew = shareOf('r.new_connections', 'r.fixed_fwa5g_router', '(r.fixed_broadband + r.fixed_fwa5g_router)');
  const fwaChurn = shareOf('r.churn_connections', 'r.fixed_fwa5g_router', '(r.fixed_broadband + r.fixed_fwa5g_router)');
  const insertBroadband = (type: string, active: string, added: string, lost: string) =>
    sql
      .raw(
        `
    insert into broadband_connections (company_id, year, month, connection_type, active_connections, new_this_month, churn_this_month, created_by, created_at, updated_at)
    select r.company_id, r.year, r.month, '${type}', ${active}, ${added}, ${lost}, ${tracking}
    from ${from.broadband} r where ${folded}`,
      )
      .execute(db);
  // The months to fold are chosen before the first insert adds rows to them.
  await sql
    .raw(
      `create temporary table fold_months as select company_id, year, month from ${from.broadband} r where ${missing('broadband_connections')}`,
    )
    .execute(db);
  await insertBroadband(
    'fixed_broadband',
    'r.fixed_broadband',
    `r.new_connections - (${fwaNew})`,
    `r.churn_connections - (${fwaChurn})`,
  );
  await insertBroadband('fixed_fwa_5g', 'r.fixed_fwa5g_router', fwaNew, fwaChurn);
  await sql.raw('drop table fold_months').execute(db);

  await sql
    .raw(
      `create temporary table fold_months as select company_id, year, month from ${from.patterns} r where ${missing('mobile_subscriptions')}`,
    )
    .execute(db);
  for (const cycle of ['daily', 'weekly', 'monthly']) {
    await sql
      .raw(
        `
      insert into mobile_subscriptions (company_id, year, month, subscription_type, active_subscriptions, new_this_month, churn_this_month, created_by, created_at, updated_at)
      select r.company_id, r.year, r.month, '${cycle}', r.${cycle}_subscriptions, r.${cycle}_new, r.${cycle}_churn, ${tracking}
      from ${from.patterns} r
      where ${folded}`,
      )
      .execute(db);
  }
  await sql.raw('drop table fold_months').execute(db);

  await sql
    .raw(
      `create temporary table fold_months as select company_id, year, month from ${from.access} r where ${missing('mobile_access_methods')}`,
    )
    .execute(db);
  for (const [method, column] of [
    ['mifi', 'mifi_devices'],
    ['sim', 'sim_cards'],
    ['esim', 'e_sim'],
    ['fwa_mobile', 'fwa_mobile'],
  ]) {
    await sql
      .raw(
        `
      insert into mobile_access_methods (company_id, year, month, access_method, active_devices, created_by, created_at, updated_at)
      select r.company_id, r.year, r.month, '${method}', r.${column}, ${tracking}
      from ${from.access} r
      where ${folded}`,
      )
      .execute(db);
  }
  await sql.raw('drop table fold_months').execute(db);
}

/** A month's count of one type: 0 when the month has no row of that type. */
const part = (typeColumn: string, type: string, column: string) =>
  `coalesce(sum(case when ${typeColumn} = '${type}' then ${column} end), 0)`;

/**
 * The monthly records as views over the per-company rows, one row per company and month, with
 * the id year × 100 + month (202611: November 2026), unique within a company.
 */
export async function createViews(db: Kysely<any>): Promise<void> {
  const head = 'year * 100 + month as id, company_id, year, month';
  const tail = 'min(created_at) as created_at, max(updated_at) as updated_at';
  const flows = (typeColumn: string, type: string, name: string, active: string) => [
    `${part(typeColumn, type, active)} as ${name}`,
    `${part(typeColumn, type, 'new_this_month')} as ${name}_new`,
    `${part(typeColumn, type, 'churn_this_month')} as ${name}_churn`,
  ];
  const broadband = [
    ...flows('connection_type', 'fixed_broadband', 'fixed_broadband', 'active_connections'),
    ...flows('connection_type', 'fixed_fiber', 'fixed_fiber', 'active_connections'),
    ...flows('connection_type', 'fixed_fwa_5g', 'fixed_fwa5g_router', 'active_connections'),
  ];
  const cycles = ['daily', 'weekly', 'monthly'].flatMap((cycle) => [
    `${part('subscription_type', cycle, 'active_subscriptions')} as ${cycle}_subscriptions`,
    `${part('subscription_type', cycle, 'new_this_month')} as ${cycle}_new`,
    `${part('subscription_type', cycle, 'churn_this_month')} as ${cycle}_churn`,
  ]);
  const devices = [
    ['mifi', 'mifi_devices'],
    ['sim', 'sim_cards'],
    ['esim', 'e_sim'],
    ['fwa_mobile', 'fwa_mobile'],
  ].map(([method, name]) => `${part('access_method', method, 'active_devices')} as ${name}`);
  const view = (name: string, table: string, columns: string[]) =>
    sql
      .raw(
        `create view ${name} as select ${[head, ...columns, tail].join(', ')} from ${table} group by company_id, year, month`,
      )
      .execute(db);
  await view('network_broadband_records', 'broadband_connections', broadband);
  await view('network_subscription_patterns', 'mobile_subscriptions', cycles);
  await view('network_access_records', 'mobile_access_methods', devices);
}
