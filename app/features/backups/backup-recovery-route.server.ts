// The /backup-recovery route's server half: the backup history, creating one (queued: the
// backup-create job writes the file, or this process when it reaches no job engine), the
// scheduled backup, verifying, restoring (after a confirmation) and deleting (after a
// confirmation too), and per-table CSV exports. Tab and selected backup live in the URL. The services
// check the backups permission again; a user limited to one company lists and exports only.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import type { BackupRecoveryData } from './backup-recovery-screen.tsx';
import type { BackupView } from './types.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { intent } from '../../platform/screen/intent.ts';
import {
  confirmationStep,
  formRowId,
  listUrl,
  loadScreen,
  screenAction,
  succeed,
  tabOf,
  type Screen,
} from '../../platform/screen/screen.server.ts';
import { BACKUP_MESSAGES as M, BACKUP_TABS, confirmRestoreMessage } from './texts.ts';
import type { Formats } from '../../platform/i18n/formats.ts';
import type { Translate } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';
import { camelCase } from '../../platform/lib/names.ts';
import { can, companyScope } from '../../platform/lib/permissions.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import type { Toast } from '../../platform/lib/toast.ts';
import { foldedSentence } from './backup-retired.server.ts';
import {
  mayRestore,
  mayRestoreTables,
  restoreBackup,
  RestoreForm,
  type RestoreResult,
} from './backup-restore.server.ts';
import type { AuthUser } from '../../platform/context.ts';
import { BACKUP_TABLES, readableTableInfos, tableLabel } from './backup-tables.server.ts';
import {
  deleteBackup,
  deleteRefusal,
  getBackup,
  listBackups,
  requestBackup,
  verifyBackup,
  type Backup,
} from './backups.server.ts';
import { isDomainError } from '../../platform/errors.ts';
import { exportTableNames } from './exports.server.ts';
import { asReader, readerWords } from '../../platform/i18n/refusal-words.ts';

const BACKUPS_TAB = '/backup-recovery?tab=backups';

const view = (b: Backup, user: AuthUser): BackupView => ({
  id: b.id,
  name: b.name,
  description: b.description,
  type: b.type,
  status: b.status,
  createdAt: b.createdAt,
  size: Number(b.size),
  recordCount: Number(b.recordCount),
  tables: b.tables,
  error: b.error,
  canDelete: can(user, 'backups', 'delete') && deleteRefusal(user, b) === null,
  canRestore: mayRestore(user) && mayRestoreTables(user, b.tables),
});

/** The Restore tab's backup: ?backup=ID, or none (and whether the id named no backup). */
async function selectedBackup(
  { ctx, url }: Screen,
  user: AuthUser,
): Promise<{ selected: BackupView | null; selectedMissing: boolean }> {
  const param = url.searchParams.get('backup');
  if (!param) return { selected: null, selectedMissing: false };
  const id = positiveIdParam(param);
  try {
    if (id !== null) return { selected: view(await getBackup(ctx, id), user), selectedMissing: false };
  } catch (error) {
    if (!isDomainError(error) || error.kind !== 'notFound') throw error;
  }
  return { selected: null, selectedMissing: true };
}

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async (screen) => {
    const { user, ctx, url } = screen;
    const abilities = {
      create: can(user, 'backups', 'create'),
      scheduled: can(user, 'installation', 'create'),
      restore: mayRestore(user),
    };
    const tabs = BACKUP_TABS.map((t) => t.key).filter(
      (key) => (key !== 'create' || abilities.create) && (key !== 'restore' || abilities.restore),
    );
    const tab = tabOf(url, tabs);
    const [backups, selection] = await Promise.all([
      listBackups(ctx),
      tab === 'restore' ? selectedBackup(screen, user) : { selected: null, selectedMissing: false },
    ]);
    const data: BackupRecoveryData = {
      tab,
      tabs,
      backups: backups.map((b) => view(b, user)),
      ...selection,
      tables: readableTableInfos(user).map((t) => ({ name: t.name, label: t.label })),
      auditTrail: can(user, 'auditLogs'),
      tableLabels: BACKUP_TABLES.map((t) => ({ name: t.name, label: t.label })),
      exports: exportTableNames(user).map((name) => ({ name, label: tableLabel(camelCase(name)) })),
      can: abilities,
      scoped: companyScope(user) !== null,
    };
    return json(data);
  });

const settingsOf = (screen: Screen) => screen.context.config.backups;

/** The create form as the service reads it (its zod schema validates; conform shows the errors). */
function backupRequest(form: FormData) {
  const text = (name: string) => (form.has(name) ? String(form.get(name)) : undefined);
  return {
    name: text('name'),
    description: text('description'),
    tables: form.getAll('tables').map(String),
    includeAuditLogs: text('includeAuditLogs'),
    includeVersions: text('includeVersions'),
  };
}

function restoredText(result: RestoreResult, f: Formats, t: Translate): string {
  const folded = result.folded.length ? ` ${foldedSentence(result.folded, t)}` : '';
  if (!result.overwrite) {
    const added = result.tables.reduce((sum, table) => sum + table.written, 0);
    return `${t('{added} of {rows} rows were missing and have been added back; existing rows were kept.', {
      added: f.number(added),
      rows: f.number(result.rows),
    })}${folded}`;
  }
  const safety = result.safetyBackupId
    ? ` ${t('A safety backup (#{id}) was taken first.', { id: result.safetyBackupId })}`
    : '';
  return `${t('{rows} rows restored.', { rows: f.number(result.rows) })}${safety}${folded}`;
}

/** Back to this list, without the selection of a backup that is gone. */
function afterDelete(url: URL, id: number): string {
  const next = new URL(url);
  if (next.searchParams.get('backup') === String(id)) next.searchParams.delete('backup');
  return listUrl(next);
}

const intents = {
  create: intent({
    allow: allow.to('backups', 'create'),
    failed: M.createFailed,
    prefix: true,
    invalid: `${M.createFailed}: ${M.invalidData}`,
    run: async (_value, screen, form) => {
      await requestBackup(screen.ctx, settingsOf(screen), backupRequest(form), 'manual');
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(screen, t(M.created), { to: BACKUPS_TAB });
    },
  }),
  scheduled: intent({
    allow: allow.to('installation', 'create'),
    failed: M.scheduledFailed,
    prefix: true,
    run: async (_value, screen) => {
      await requestBackup(screen.ctx, settingsOf(screen), {}, 'scheduled');
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(screen, t(M.scheduled), { to: BACKUPS_TAB });
    },
  }),
  verify: intent({
    allow: allow.to('backups'),
    failed: M.verifyFailed,
    prefix: true,
    run: async (_value, screen, form) => {
      const result = await verifyBackup(screen.ctx, settingsOf(screen), formRowId(form));
      const i18n = requestI18n(screen.request, screen.auth);
      const { t } = i18n;
      const toast: Toast = result.valid
        ? { type: 'success', title: t(M.verified.title), description: t(M.verified.description) }
        : {
            type: 'error',
            title: t(M.invalid.title),
            description: result.reason
              ? t('{failed}: {reason}', {
                  failed: t(M.invalid.description),
                  reason: readerWords(result, result.reason, asReader(i18n)),
                })
              : t(M.invalid.description),
          };
      return succeed(screen, toast);
    },
  }),
  restore: intent({
    allow: allow.to('installation', 'edit'),
    schema: RestoreForm,
    failed: M.restoreFailed,
    prefix: true,
    run: async ({ overwrite, skipAuditLogs }, screen, form) => {
      const backup = await getBackup(screen.ctx, formRowId(form));
      const { t, formats } = requestI18n(screen.request, screen.auth);
      // Without JavaScript there was no confirm(): the step first, carrying the options.
      if (form.get('confirmed') !== '1') {
        return json({
          intent: 'confirm-restore' as const,
          id: backup.id,
          message: confirmRestoreMessage(t, backup.name, overwrite),
          overwrite,
          skipAuditLogs,
        });
      }
      const result = await restoreBackup(
        screen.ctx,
        settingsOf(screen),
        { backupId: backup.id },
        { overwrite, skipAuditLogs },
      );
      // The selection clears after a restore.
      return succeed(
        screen,
        {
          type: 'success',
          title: t(M.restored),
          description: restoredText(result, formats, t),
        },
        { to: BACKUPS_TAB },
      );
    },
  }),
  delete: intent({
    allow: allow.to('backups', 'delete'),
    failed: M.deleteFailed,
    prefix: true,
    run: async (_value, screen, form) => {
      const backup = await getBackup(screen.ctx, formRowId(form));
      const { t } = requestI18n(screen.request, screen.auth);
      const confirm = confirmationStep(form, backup.id, t(M.confirmDelete));
      if (confirm) return confirm;
      await deleteBackup(screen.ctx, settingsOf(screen), backup.id);
      return succeed(screen, t(M.deleted), { to: afterDelete(screen.url, backup.id) });
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
