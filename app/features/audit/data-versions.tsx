// The Data Versions tab: one record's versions newest first, each with its data in the form's
// words and formats (the raw JSON folded below), its differences from the current version side
// by side, and 'Restore this version' (confirm() with JavaScript; without it the server answers
// the confirmation step first). A baseline version holds a record as it was before its first
// recorded change.
import { DateTime } from '../../platform/i18n/date-time.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';
import type { DataVersion } from './audit-trail.server.ts';
import { ConfirmingForm, ConfirmStep } from '../../platform/screen/confirm.tsx';
import { Button } from '../../ui/form.tsx';
import type { ReadableField } from './audit-readable.server.ts';
import { ActionBadge, StoredValue } from './parts.tsx';
import { differences } from './values.ts';

export interface VersionsData {
  /** null: no table and record chosen yet. */
  versions: DataVersion[] | null;
  /** Whether the reader may restore versions of this record. */
  canRestore: boolean;
}

export const restoreMessage = (t: Translate, version: number) =>
  t('Restore version {version} of this record?', { version });

function RestoreButton({ version }: { version: DataVersion }) {
  const t = useT();
  return (
    <ConfirmingForm message={restoreMessage(t, version.version)} fields={{ intent: 'restore', versionId: version.id }}>
      <Button
        type="submit"
        variant="secondary"
        aria-label={t('Restore version {version}', { version: version.version })}
      >
        {t('Restore this version')}
      </Button>
    </ConfirmingForm>
  );
}

/** The no-JS confirmation step: Confirm posts again, confirmed; Cancel goes back. */
export function ConfirmRestore({
  versionId,
  message,
  cancelTo,
}: {
  versionId: number;
  message: string;
  cancelTo: string;
}) {
  const t = useT();
  return (
    <ConfirmStep
      title={t('Confirm restore')}
      message={message}
      fields={{ intent: 'restore', versionId }}
      cancelTo={cancelTo}
      testId="confirm-restore"
    />
  );
}

/** A field's label and value as the version shows it (a field it lacks: '—'). */
function shown(fields: ReadableField[] | undefined, field: string): { label: string; value: string } | null {
  const found = fields?.find((f) => f.field === field);
  return found ? { label: found.label, value: found.value } : null;
}

function Differences({ version, current }: { version: DataVersion; current: DataVersion }) {
  const t = useT();
  const rows = differences(version.data, current.data).filter((row) => row.field !== 'updatedAt');
  if (rows.length === 0) return <p className="mt-2 text-xs text-slate-500">{t('Same data as the current version.')}</p>;
  return (
    <table className="mt-2 w-full table-fixed text-left text-xs" data-testid="version-diff">
      <caption className="sr-only">
        {t('Differences of version {version} from the current version', { version: version.version })}
      </caption>
      <thead className="bg-slate-50 text-slate-600">
        <tr>
          <th scope="col" className="w-1/5 px-2 py-1">
            {t('Field')}
          </th>
          <th scope="col" className="px-2 py-1">
            {t('This version')}
          </th>
          <th scope="col" className="px-2 py-1">
            {t('Current')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((row) => {
          const mine = shown(version.fields, row.field);
          const now = shown(current.fields, row.field);
          return (
            <tr key={row.field}>
              <th scope="row" className="px-2 py-1 font-medium text-slate-900">
                {t(mine?.label ?? now?.label ?? row.field)}
              </th>
              <td className="px-2 py-1 text-red-800">
                <StoredValue value={mine ? mine.value : (row.mine ?? '—')} />
              </td>
              <td className="px-2 py-1 text-green-800">
                <StoredValue value={now ? now.value : (row.current ?? '—')} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function VersionFields({ fields }: { fields: ReadableField[] }) {
  const t = useT();
  if (fields.length === 0) return null;
  return (
    <dl
      className="mt-2 grid grid-cols-[minmax(8rem,max-content)_1fr] gap-x-4 gap-y-1 rounded-md bg-slate-50 p-2 text-xs"
      data-testid="version-fields"
    >
      {fields.map((f) => (
        <div key={f.field} className="contents">
          <dt className="font-medium text-slate-900">{t(f.label)}</dt>
          <dd className="text-slate-800">
            <StoredValue value={f.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Version({
  version,
  current,
  restorable,
}: {
  version: DataVersion;
  current: DataVersion | undefined;
  restorable: boolean;
}) {
  const t = useT();
  return (
    <li className="px-4 py-3" data-testid="version">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-semibold text-slate-900">{t('Version {version}', { version: version.version })}</span>
        <span
          className="text-xs text-slate-500"
          title={t('{command} takes this id', { command: 'finhub audit restore' })}
        >
          {t('id {id}', { id: version.id })}
        </span>
        <ActionBadge action={version.action} />
        {version.isActive ? (
          <span className="rounded-full bg-green-600 px-2 py-0.5 text-xs font-medium text-white">{t('Current')}</span>
        ) : null}
        <DateTime value={version.createdAt} kind="instant" className="text-xs text-slate-500" />
        <span className="text-xs text-slate-600" data-testid="version-author">
          {version.createdByName ? t('by {name}', { name: version.createdByName }) : t('by system')}
        </span>
        {restorable ? (
          <span className="ml-auto">
            <RestoreButton version={version} />
          </span>
        ) : null}
      </div>
      {version.comment ? (
        <p className="mt-1 text-sm text-slate-700" translate="no">
          {version.comment}
        </p>
      ) : null}
      {version.fields ? <VersionFields fields={version.fields} /> : null}
      <details className="mt-2 text-xs">
        <summary className="cursor-pointer text-blue-700">{t('Data as JSON')}</summary>
        <pre
          className="mt-1 max-h-80 overflow-auto rounded-md bg-slate-50 p-2 text-slate-800"
          tabIndex={0}
          role="region"
          aria-label={t('Data as JSON')}
          data-testid="version-data"
          translate="no"
        >
          {JSON.stringify(version.data, null, 2)}
        </pre>
      </details>
      {current && !version.isActive ? <Differences version={version} current={current} /> : null}
    </li>
  );
}

export function DataVersions({ data }: { data: VersionsData }) {
  const t = useT();
  const { versions } = data;
  if (versions === null)
    return (
      <p className="rounded-lg border border-slate-200 bg-white px-4 py-10 text-center text-slate-500">
        {t('Select a table and record ID to view version history')}
      </p>
    );
  if (versions.length === 0)
    return (
      <p className="rounded-lg border border-slate-200 bg-white px-4 py-10 text-center text-slate-500">
        {t('No version history found for this record')}
      </p>
    );
  const current = versions.find((v) => v.isActive);
  // A deleted record: its current version is the delete, and restoring it brings the record back.
  const restorable = (v: DataVersion) => data.canRestore && (!v.isActive || v.action === 'delete');
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <ul className="divide-y divide-slate-100">
        {versions.map((v) => (
          <Version key={v.id} version={v} current={current} restorable={restorable(v)} />
        ))}
      </ul>
    </section>
  );
}
