// Company metrics: per-company broadband connections, mobile subscriptions and
// mobile access methods; the One Network monthly records (broadband, mobile subscription
// patterns, mobile access); Vult's subscriber metrics, subscriber levels and card types.
// Every row has company_id, year and month; counts are non-negative integers, percentages
// integer hundredths 0–10000 (0–100.00 %), revenue integer cents. One row per company, month
// and type (or per company and month where a row holds the whole month): a unique index,
// which is also the index of the screens' and the API's company/year/month filters; the
// year/month and type filters have their own.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export const CONNECTION_TYPES = ['fixed_broadband', 'fixed_fiber', 'fixed_fwa_5g'];
export const SUBSCRIPTION_TYPES = ['daily', 'weekly', 'monthly'];
export const ACCESS_METHODS = ['mifi', 'sim', 'esim', 'fwa_mobile'];
export const SUBSCRIBER_LEVELS = ['level_0', 'level_1', 'level_2', 'in_progress'];
export const CARD_TYPES = ['platinum', 'gold', 'black', 'aqua', 'plastic', 'virtual'];

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  const count = (column: string) => (t: CreateTableBuilder<any, any>) =>
    t.addColumn(column, d.bigint, (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql.raw(`${column} >= 0`)),
    );
  const percent = (column: string) => (t: CreateTableBuilder<any, any>) =>
    t.addColumn(`${column}_hundredths`, 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql.raw(`${column}_hundredths between 0 and 10000`)),
    );
  const oneOf = (column: string, values: string[]) => (t: CreateTableBuilder<any, any>) =>
    t.addColumn(column, 'varchar(30)', (c) =>
      c.notNull().check(sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`)),
    );
  /** id, company, year and month: what every table starts with. */
  const monthRow = (t: CreateTableBuilder<any, any>) =>
    t
      .addColumn('id', 'integer', d.id)
      .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('restrict'))
      .addColumn('year', 'integer', (c) => c.notNull().check(sql.raw('year between 2020 and 2030')))
      .addColumn('month', 'integer', (c) => c.notNull().check(sql.raw('month between 1 and 12')));
  const tracking = (t: CreateTableBuilder<any, any>) =>
    t
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
      .addColumn('updated_at', d.instant, (c) => c.notNull().defaultTo(d.now));
  const revenue = (t: CreateTableBuilder<any, any>) =>
    t.addColumn('revenue_cents', d.bigint, (c) => c.check(sql.raw('revenue_cents >= 0')));
  const description = (t: CreateTableBuilder<any, any>) => t.addColumn('description', 'text');

  const tables: {
    name: string;
    build: (t: CreateTableBuilder<any, any>) => CreateTableBuilder<any, any>;
    key: string[];
  }[] = [
    {
      name: 'broadband_connections',
      key: ['connection_type'],
      build: (t) =>
        t
          .$call(oneOf('connection_type', CONNECTION_TYPES))
          .$call(count('active_connections'))
          .$call(count('new_this_month'))
          .$call(count('churn_this_month'))
          .$call(percent('percentage_of_total'))
          .$call(revenue),
    },
    {
      name: 'mobile_subscriptions',
      key: ['subscription_type'],
      build: (t) =>
        t
          .$call(oneOf('subscription_type', SUBSCRIPTION_TYPES))
          .$call(count('active_subscriptions'))
          .$call(count('new_this_month'))
          .$call(count('churn_this_month'))
          .$call(percent('percentage_of_total'))
          .$call(revenue),
    },
    {
      name: 'mobile_access_methods',
      key: ['access_method'],
      build: (t) =>
        t
          .$call(oneOf('access_method', ACCESS_METHODS))
          .$call(count('active_devices'))
          .$call(percent('percentage_of_total'))
          .$call(revenue),
    },
    {
      name: 'network_broadband_records',
      key: [],
      build: (t) =>
        t
          .$call(count('total_broadband'))
          .$call(count('fixed_broadband'))
          .$call(percent('fixed_broadband_percentage'))
          .$call(count('fixed_fwa5g_router'))
          .$call(percent('fixed_fwa5g_router_percentage'))
          .$call(count('new_connections'))
          .$call(count('churn_connections')),
    },
    {
      name: 'network_subscription_patterns',
      key: [],
      build: (t) => {
        let out = t.$call(count('total_mobile_subscriptions'));
        for (const cycle of SUBSCRIPTION_TYPES) {
          out = out
            .$call(count(`${cycle}_subscriptions`))
            .$call(percent(`${cycle}_subscriptions_percentage`))
            .$call(count(`${cycle}_new`))
            .$call(count(`${cycle}_churn`));
        }
        return out;
      },
    },
    {
      name: 'network_access_records',
      key: [],
      build: (t) =>
        t
          .$call(count('mifi_devices'))
          .$call(percent('mifi_devices_percentage'))
          .$call(count('sim_cards'))
          .$call(percent('sim_cards_percentage'))
          .$call(count('e_sim'))
          .$call(percent('e_sim_percentage'))
          .$call(count('fwa_mobile'))
          .$call(percent('fwa_mobile_percentage')),
    },
    {
      name: 'vult_subscriber_metrics',
      key: [],
      build: (t) =>
        t
          .$call(count('total_subscribers'))
          .$call(percent('retention_rate'))
          .$call(percent('conversion_rate'))
          .$call(count('card_holders'))
          .$call(percent('card_adoption_rate')),
    },
    {
      name: 'vult_subscriber_levels',
      key: ['level'],
      build: (t) =>
        t
          .$call(oneOf('level', SUBSCRIBER_LEVELS))
          .$call(count('subscriber_count'))
          .$call(percent('percentage_of_total'))
          .$call(description),
    },
    {
      name: 'vult_card_types',
      key: ['card_type'],
      build: (t) =>
        t
          .$call(oneOf('card_type', CARD_TYPES))
          .$call(count('card_count'))
          .$call(percent('percentage_of_cards'))
          .$call(percent('percentage_of_users'))
          .$call(description),
    },
  ];

  for (const table of tables) {
    await db.schema.createTable(table.name).$call(monthRow).$call(table.build).$call(tracking).execute();
    await db.schema
      .createIndex(`${table.name}_month_uq`)
      .on(table.name)
      .columns(['company_id', 'year', 'month', ...table.key])
      .unique()
      .execute();
    // Lists of every company the user may see, newest month first.
    await db.schema.createIndex(`${table.name}_year_month_idx`).on(table.name).columns(['year', 'month']).execute();
    // The type filter of the lists (connection type, level, card type…), newest month first.
    if (table.key.length)
      await db.schema
        .createIndex(`${table.name}_${table.key[0]}_idx`)
        .on(table.name)
        .columns([...table.key, 'year', 'month'])
        .execute();
  }
}
