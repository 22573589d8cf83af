// Rows of tables a later migration retired, restored the way that migration treated them. A
// backup made before One Network's monthly records became views holds them as tables: each
// month only they held is folded into the per-company rows exactly as the migration folded the
// live tables (a month the per-company rows already hold keeps those rows).
import { CompiledQuery, sql } from 'kysely';
import { dialectHelpers, dialectOf } from '../../../db/dialect.ts';
import { foldMonthlyRecords, MONTHLY_COUNTS } from '../../../db/migrations/0040_one_network_parts.ts';
import { snakeCase } from '../../platform/lib/names.ts';
import { readBackupFile, type BackupManifest } from './backup-file.server.ts';
import type { Db } from '../../platform/context.ts';
import type { FoldedTable } from './answers.ts';
import { englishIcu } from '../../platform/i18n/english-icu.server.ts';
import { msg, type Translate } from '../../platform/i18n/messages.ts';

type MonthlyTable = keyof typeof MONTHLY_COUNTS;

const PER_COMPANY: Record<MonthlyTable, 'broadbandConnections' | 'mobileSubscriptions' | 'mobileAccessMethods'> = {
  networkBroadbandRecords: 'broadbandConnections',
  networkSubscriptionPatterns: 'mobileSubscriptions',
  networkAccessRecords: 'mobileAccessMethods',
};

const KEY = ['companyId', 'year', 'month'] as const;
const TRACKING = ['createdBy', 'createdAt', 'updatedAt'] as const;

const isMonthly = (name: string): name is MonthlyTable => Object.hasOwn(MONTHLY_COUNTS, name);

const staging = (table: MonthlyTable) => `restore_${snakeCase(table)}`;

/**
 * Folds the backup's retired monthly tables into the per-company rows, inside the restore's
 * transaction and after the backup's own rows are in (so the per-company rows it holds win).
 */
export async function foldRetiredTables(trx: Db, file: string, manifest: BackupManifest): Promise<FoldedTable[]> {
  const present = manifest.tables.filter((t) => isMonthly(t.name) && t.rows > 0);
  if (!present.length) return [];
  const dialect = dialectOf(trx);
  const d = dialectHelpers(dialect);
  const before = new Map<MonthlyTable, number>();
  for (const table of Object.keys(MONTHLY_COUNTS) as MonthlyTable[]) {
    const columns = [
      ...KEY.map((c) => `${snakeCase(c)} integer not null`),
      ...MONTHLY_COUNTS[table].map((c) => `${snakeCase(c)} ${d.bigint} not null default 0`),
      `created_by integer`,
      `created_at ${d.instant} not null`,
      `updated_at ${d.instant} not null`,
    ];
    await sql
      .raw(
        `create temporary table ${staging(table)} (${columns.join(', ')})${dialect === 'postgres' ? ' on commit drop' : ''}`,
      )
      .execute(trx);
    before.set(table, await countRows(trx, PER_COMPANY[table]));
  }

  for await (const event of readBackupFile(file, 500)) {
    if (event.kind !== 'rows' || !isMonthly(event.table.name)) continue;
    const table = event.table.name;
    const wanted = [...KEY, ...MONTHLY_COUNTS[table], ...TRACKING].filter((c) => event.table.columns.includes(c));
    const at = wanted.map((c) => event.table.columns.indexOf(c));
    const values = event.rows.flatMap((row) => at.map((i) => row[i]));
    const tuple = `(${wanted.map(() => '?').join(', ')})`;
    let text = `insert into ${staging(table)} (${wanted.map(snakeCase).join(', ')}) values ${event.rows.map(() => tuple).join(', ')}`;
    if (dialect === 'postgres') {
      let n = 0;
      text = text.replace(/\?/g, () => `$${++n}`);
    }
    await trx.executeQuery(CompiledQuery.raw(text, values));
  }
  for (const table of Object.keys(MONTHLY_COUNTS) as MonthlyTable[]) {
    // Who made a month is kept when that account is in this database.
    await sql
      .raw(
        `update ${staging(table)} set created_by = null where created_by is not null and not exists (select 1 from users u where u.id = created_by)`,
      )
      .execute(trx);
  }
  await foldMonthlyRecords(trx, {
    broadband: staging('networkBroadbandRecords'),
    patterns: staging('networkSubscriptionPatterns'),
    access: staging('networkAccessRecords'),
  });
  const folded: FoldedTable[] = [];
  for (const table of Object.keys(MONTHLY_COUNTS) as MonthlyTable[]) {
    const rows = present.find((t) => t.name === table)?.rows ?? 0;
    if (rows)
      folded.push({
        table,
        rows,
        added: (await countRows(trx, PER_COMPANY[table])) - before.get(table)!,
        into: PER_COMPANY[table],
      });
    await sql.raw(`drop table ${staging(table)}`).execute(trx);
  }
  return folded;
}

async function countRows(trx: Db, table: string): Promise<number> {
  const { rows } = await sql.raw<{ n: number | string }>(`select count(*) as n from ${snakeCase(table)}`).execute(trx);
  return Number(rows[0].n);
}

const ENGLISH = englishIcu({ grouping: false });

/**
 * One sentence for people: what the fold made of the retired tables' rows (empty when none), in
 * the language of `t` (the CLI's English without it).
 */
export function foldedSentence(folded: readonly FoldedTable[], t: Translate = ENGLISH): string {
  if (!folded.length) return '';
  const rows = folded.reduce((sum, table) => sum + table.rows, 0);
  const added = folded.reduce((sum, table) => sum + table.added, 0);
  return added
    ? t(
        msg(
          '{rows, plural, one {# One Network monthly record of an earlier version} other {# One Network monthly records of an earlier version}} added {added, plural, one {# per-company row} other {# per-company rows}} for the months only they held.',
        ),
        { rows, added },
      )
    : t(
        msg(
          '{rows, plural, one {# One Network monthly record of an earlier version} other {# One Network monthly records of an earlier version}} held no month missing from the per-company rows.',
        ),
        { rows },
      );
}
