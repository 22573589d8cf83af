// A backup made by an older schema restores after the migrations in between are applied to its
// rows; one from a newer schema, or older than the first migration that says how, is refused
// with both versions named. Each migration since backups exist says what it does to backed-up
// rows: nothing (new tables, new nullable columns), or a function per table.
import { migrations } from '../../../db/migrations/index.ts';
import { originOfUrl } from '../../../db/migrations/0018_credential_origin.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { worded } from '../../platform/i18n/refusal-words.ts';

type RowUpgrade = (row: Record<string, unknown>) => Record<string, unknown>;
type TableUpgrades = Record<string, RowUpgrade>;

/**
 * Per migration name: the row changes it makes to backed-up tables (camelCase names), or a
 * function making them afresh for each restore when they carry what earlier tables held.
 */
const UPGRADES: Record<string, TableUpgrades | (() => TableUpgrades)> = {
  // New company metric tables: an older backup simply has none.
  '0005_company_metrics': {},
  // Audit entries and versions record their row's company (as the migration's backfill does).
  '0006_audit_company': {
    auditLogs: (row) => ({
      ...row,
      companyId: row.companyId ?? companyOf(row.tableName, row.recordId, row.newData, row.oldData),
    }),
    dataVersions: (row) => ({ ...row, companyId: row.companyId ?? companyOf(row.tableName, row.recordId, row.data) }),
  },
  '0007_backups': {},
  // Notifications and push subscriptions are not backed up (backup-tables: NOT_BACKED_UP).
  '0008_notifications': {},
  // AI insights are recomputed from the books, not backed up.
  '0009_ai_insights': {},
  // Chat conversations and the narrated flag of insights: neither is backed up.
  '0010_ai_chat': {},
  // Integration tables are new: older backups hold none of their rows.
  '0011_integrations': {},
  '0012_error_fingerprints': {},
  // Search indexes are derived from the rows.
  '0013_search_indexes': {},
  // Change tokens are not backed up (a restore replaces them).
  '0014_change_tokens': {},
  // Search tables are derived from their table's rows, never backed up.
  '0015_search_tables': {},
  // So are their dictionaries of repeated values.
  '0016_search_terms': {},
  // Day counts are kept by triggers and counted again by a restore, never backed up.
  '0017_day_counts': {},
  // Credentials take the origin of their source's base URL (a backup holds a credential's source
  // before it), sealed without associated data (seal version 1) until first use or rotate-key.
  '0018_credential_origin': () => {
    const origins = new Map<string, string | null>();
    return {
      apiIntegrationSources: (row) => {
        if (row.id != null) origins.set(String(row.id), originOfUrl(row.baseUrl));
        return row;
      },
      apiIntegrationCredentials: (row) => ({
        ...row,
        origin: row.origin ?? origins.get(String(row.sourceId)) ?? null,
        sealVersion: row.sealVersion ?? 1,
      }),
    };
  },
  // Unique indexes on names ignoring case: a backup holding two such names is refused, naming the row.
  '0019_unique_names': {},
  // Work leases are not backed up (NOT_BACKED_UP).
  '0020_work_leases': {},
  // An index on backups, which are never in a backup.
  '0021_backup_per_user': {},
  // Month totals and plans are derived from the rows, never backed up, built again by a restore.
  '0022_money_aggregates': {},
  // Stored anomaly findings and the SQLite change counter are derived, never backed up; two new indexes.
  '0023_expense_anomalies': {},
  // Indexes only (audit_logs, user_sessions).
  '0024_activity_indexes': {},
  // The bell's kept counts are derived from notifications (never backed up) and counted again when read.
  '0025_notification_badges': {},
  // An index of audit_logs only.
  '0026_audit_action_index': {},
  // Audit entries per company are derived (kept by triggers), never backed up.
  '0027_audit_counts': {},
  // Creates per table, company and month are derived from the audit trail (kept by triggers), never backed up.
  '0028_audit_create_months': {},
  // Audit entries per day and company are derived (kept by triggers), never backed up.
  '0029_audit_days': {},
  // A column of the bell's kept counts (derived, never backed up).
  '0030_notification_categories': {},
  // An index of notifications only.
  '0031_notification_category_index': {},
  // An index of actual_revenue only.
  '0032_revenue_source_index': {},
  // The activity window's stored counts are derived from the audit trail (a job computes them), never backed up.
  '0033_activity_window': {},
  // An index of notifications (and on PostgreSQL a planner setting of the table) only.
  '0034_notification_audiences': {},
  // Audit entries per user and action are derived (kept by triggers), never backed up.
  '0035_audit_user_counts': {},
  // An endpoint's company is a new nullable column (older endpoints: each record names its own);
  // the new 'partial' status is only in sync logs, which are not backed up.
  '0036_sync_company_partial': {},
  // Per-user audit counts are derived (recounted); notifications are not backed up.
  '0037_quiet_activity_and_repeats': {},
  // Shares are computed from the counts: the per-company rows lose their stored one. The One
  // Network monthly tables became views over those rows (RETIRED_TABLES below).
  '0040_one_network_parts': {
    broadbandConnections: withoutShare,
    mobileSubscriptions: withoutShare,
    mobileAccessMethods: withoutShare,
  },
  // Every user has a settings row: an older backup's users may have none, and a restore that
  // brings users back gives each one without a row the defaults (backup-restore.server.ts).
  '0041_user_settings_rows': {},
  // New tables only, none of them backed up (second factors stay with their accounts).
  '0042_two_factor': {},
  // A new table, not backed up (the imports of this installation).
  '0043_imports': {},
  // Triggers only.
  '0044_inserts_by_statement': {},
  // A new column of notifications, which are not backed up.
  '0045_notification_texts': {},
  '0046_stored_ai_texts': {},
  // New columns of imports and sync logs, which are not backed up.
  '0047_stored_error_texts': {},
};

function withoutShare(row: Record<string, unknown>): Record<string, unknown> {
  const { percentageOfTotalHundredths: _share, ...rest } = row;
  return rest;
}

/**
 * Tables an older backup may hold that are gone, with the migration that retired them: a
 * restore folds their rows into the tables that replaced them as that migration did
 * (backup-retired.server.ts): a One Network month only the monthly records held becomes
 * per-company rows; their typed totals and shares are computed from the counts.
 */
export const RETIRED_TABLES: Readonly<Record<string, string>> = {
  networkBroadbandRecords: '0040_one_network_parts',
  networkSubscriptionPatterns: '0040_one_network_parts',
  networkAccessRecords: '0040_one_network_parts',
};

function companyOf(table: unknown, recordId: unknown, ...data: unknown[]): number | null {
  if (table === 'companies') return typeof recordId === 'number' ? recordId : null;
  for (const d of data) {
    const id = (d as { companyId?: unknown } | null)?.companyId;
    if (typeof id === 'number') return id;
  }
  return null;
}

const ORDER = Object.keys(migrations);

/** The schema version of this code: its last migration. */
export const SCHEMA_VERSION = ORDER[ORDER.length - 1];

export class SchemaVersionError extends Error {
  override name = 'SchemaVersionError';
}

/**
 * How to bring a backup's rows from `version` to SCHEMA_VERSION: per table, the row changes in
 * order (empty when the versions are equal). Throws SchemaVersionError when that cannot be done.
 */
export function upgradesFrom(version: string): Map<string, RowUpgrade[]> {
  const index = ORDER.indexOf(version);
  if (index === -1) {
    throw worded(
      (english) => new SchemaVersionError(english),
      msg(
        'This backup was made by a newer or unknown version of the database (schema {version}); this installation is at {current}. Upgrade the app first.',
      ),
      { version, current: SCHEMA_VERSION },
    );
  }
  const steps = ORDER.slice(index + 1);
  const missing = steps.find((name) => !(name in UPGRADES));
  if (missing) {
    throw worded(
      (english) => new SchemaVersionError(english),
      msg(
        "This backup's schema {version} is too old to restore into {current}: rows cannot be brought past migration {missing}.",
      ),
      { version, current: SCHEMA_VERSION, missing },
    );
  }
  const byTable = new Map<string, RowUpgrade[]>();
  for (const name of steps) {
    const step = UPGRADES[name];
    for (const [table, upgrade] of Object.entries(typeof step === 'function' ? step() : step))
      byTable.set(table, [...(byTable.get(table) ?? []), upgrade]);
  }
  return byTable;
}
