// Explicit migration list: no file discovery at run time. Append new migrations; never edit
// one that has landed.
import type { Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_finance.ts';
import * as m0003 from './0003_row_counts.ts';
import * as m0004 from './0004_jobs.ts';
import * as m0005 from './0005_company_metrics.ts';
import * as m0006 from './0006_audit_company.ts';
import * as m0007 from './0007_backups.ts';
import * as m0008 from './0008_notifications.ts';
import * as m0009 from './0009_ai_insights.ts';
import * as m0010 from './0010_ai_chat.ts';
import * as m0011 from './0011_integrations.ts';
import * as m0012 from './0012_error_fingerprints.ts';
import * as m0013 from './0013_search_indexes.ts';
import * as m0014 from './0014_change_tokens.ts';
import * as m0015 from './0015_search_tables.ts';
import * as m0016 from './0016_search_terms.ts';
import * as m0017 from './0017_day_counts.ts';
import * as m0018 from './0018_credential_origin.ts';
import * as m0019 from './0019_unique_names.ts';
import * as m0020 from './0020_work_leases.ts';
import * as m0021 from './0021_backup_per_user.ts';
import * as m0022 from './0022_money_aggregates.ts';
import * as m0023 from './0023_expense_anomalies.ts';
import * as m0024 from './0024_activity_indexes.ts';
import * as m0025 from './0025_notification_badges.ts';
import * as m0026 from './0026_audit_action_index.ts';
import * as m0027 from './0027_audit_counts.ts';
import * as m0028 from './0028_audit_create_months.ts';
import * as m0029 from './0029_audit_days.ts';
import * as m0030 from './0030_notification_categories.ts';
import * as m0031 from './0031_notification_category_index.ts';
import * as m0032 from './0032_revenue_source_index.ts';
import * as m0033 from './0033_activity_window.ts';
import * as m0034 from './0034_notification_audiences.ts';
import * as m0035 from './0035_audit_user_counts.ts';
import * as m0036 from './0036_sync_company_partial.ts';
import * as m0037 from './0037_quiet_activity_and_repeats.ts';
import * as m0040 from './0040_one_network_parts.ts';
import * as m0041 from './0041_user_settings_rows.ts';
import * as m0042 from './0042_two_factor.ts';
import * as m0043 from './0043_imports.ts';
import * as m0044 from './0044_inserts_by_statement.ts';
import * as m0045 from './0045_notification_texts.ts';
import * as m0046 from './0046_stored_ai_texts.ts';
import * as m0047 from './0047_stored_error_texts.ts';

export interface DialectMigration {
  up(db: Kysely<any>, d: DialectHelpers): Promise<void>;
  down?(db: Kysely<any>, d: DialectHelpers): Promise<void>;
}

export const migrations: Record<string, DialectMigration> = {
  '0001_foundation': m0001,
  '0002_finance': m0002,
  '0003_row_counts': m0003,
  '0004_jobs': m0004,
  '0005_company_metrics': m0005,
  '0006_audit_company': m0006,
  '0007_backups': m0007,
  '0008_notifications': m0008,
  '0009_ai_insights': m0009,
  '0010_ai_chat': m0010,
  '0011_integrations': m0011,
  '0012_error_fingerprints': m0012,
  '0013_search_indexes': m0013,
  '0014_change_tokens': m0014,
  '0015_search_tables': m0015,
  '0016_search_terms': m0016,
  '0017_day_counts': m0017,
  '0018_credential_origin': m0018,
  '0019_unique_names': m0019,
  '0020_work_leases': m0020,
  '0021_backup_per_user': m0021,
  '0022_money_aggregates': m0022,
  '0023_expense_anomalies': m0023,
  '0024_activity_indexes': m0024,
  '0025_notification_badges': m0025,
  '0026_audit_action_index': m0026,
  '0027_audit_counts': m0027,
  '0028_audit_create_months': m0028,
  '0029_audit_days': m0029,
  '0030_notification_categories': m0030,
  '0031_notification_category_index': m0031,
  '0032_revenue_source_index': m0032,
  '0033_activity_window': m0033,
  '0034_notification_audiences': m0034,
  '0035_audit_user_counts': m0035,
  '0036_sync_company_partial': m0036,
  '0037_quiet_activity_and_repeats': m0037,
  '0040_one_network_parts': m0040,
  '0041_user_settings_rows': m0041,
  '0042_two_factor': m0042,
  '0043_imports': m0043,
  '0044_inserts_by_statement': m0044,
  '0045_notification_texts': m0045,
  '0046_stored_ai_texts': m0046,
  '0047_stored_error_texts': m0047,
};
