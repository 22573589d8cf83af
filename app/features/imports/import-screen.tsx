// The /imports page (docs/imports.md): the upload form, then the check of the file (matched
// columns, preview rows, refused rows) with Import all / Import valid rows, then the outcome.
// Plain forms and links: every step works without JavaScript; while the file is checked or
// imported the page reloads itself (a meta refresh, or the loaders again with JavaScript).
import { Form, Link } from '@remix-run/react';
import { PageHeading } from '../../ui/page-heading.tsx';
import { Alert, Button, Card } from '../../ui/form.tsx';
import { formErrorOf, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { useRefreshEvery } from '../../platform/screen/use-refresh.ts';
import { screenTitle } from '../../platform/screen/navigation.ts';
import type { StoredOutcome } from './imports.server.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';

export interface ImportScreenData {
  kind: 'upload' | 'import';
  tables: { key: string; title: string }[];
  table: { key: string; title: string } | null;
  fields: { name: string; label: string; required: boolean }[];
  import: {
    id: number;
    fileName: string;
    status: string;
    phase: string;
    mode: string | null;
    updateById: boolean;
    rowsRead: number;
    rows: number | null;
    valid: number | null;
    invalid: number | null;
    created: number | null;
    updated: number | null;
    unchanged: number | null;
    error: string | null;
    hasRefused: boolean;
    canRun: boolean;
    /** The import of the same file into the same table before, if any. */
    duplicate: { id: number; importedAt: string } | null;
  } | null;
  outcome: StoredOutcome | null;
}

/** Counts of rows in the reader's number format. */
function useCount() {
  const f = useFormats();
  return (v: number | null | undefined) => f.number(v ?? 0);
}

/** Where a sentence's data goes, in its translated text. */
const SLOT = '\u0000';

/** A sentence with data in it, the data marked as such (docs/languages.md). */
function WithData({ text, data }: { text: string; data: string }) {
  const [before = '', after = ''] = text.split(SLOT);
  return (
    <>
      {before}
      <span translate="no">{data}</span>
      {after}
    </>
  );
}

type Run = NonNullable<ImportScreenData['import']>;

/** One line on how the import stands or ended ('1,200 rows imported, 3 refused'), as importSummary says it. */
function Summary({ run }: { run: Run }) {
  const t = useT();
  const n = useCount();
  if (run.status === 'failed')
    return run.error ? <span translate="no">{run.error}</span> : <>{t('The import failed')}</>;
  if (run.status === 'checked') {
    const values = { valid: n(run.valid), total: n(run.rows), invalid: n(run.invalid) };
    return (
      <>
        {run.invalid
          ? t('{valid} of {total} rows are valid, {invalid} invalid', values)
          : t('{valid} of {total} rows are valid', values)}
      </>
    );
  }
  if (run.status === 'completed') {
    const parts = [t('{count} rows added', { count: n(run.created) })];
    if (run.updated) parts.push(t('{count} updated', { count: n(run.updated) }));
    if (run.unchanged) parts.push(t('{count} unchanged', { count: n(run.unchanged) }));
    if (run.invalid) parts.push(t('{count} refused', { count: n(run.invalid) }));
    return <>{parts.join(', ')}</>;
  }
  return (
    <>{run.status === 'running' ? t('{count} rows read so far', { count: n(run.rowsRead) }) : t('Waiting to start')}</>
  );
}

export function ImportScreen({ data, actionData }: { data: ImportScreenData; actionData: ActionAnswer | undefined }) {
  const t = useT();
  const failure = formErrorOf(actionData);
  const fieldErrors = actionData?.result?.error ?? {};
  const fileError = fieldErrors.file?.[0] ?? fieldErrors.table?.[0];
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeading title={t(screenTitle('/imports'))} />
      {failure ? <Alert title={t('Error')}>{t(failure)}</Alert> : null}
      {fileError ? <Alert title={t('Error')}>{t(fileError)}</Alert> : null}
      {data.kind === 'upload' ? <UploadForm data={data} /> : <ImportView data={data} />}
    </div>
  );
}

function UploadForm({ data }: { data: ImportScreenData }) {
  const t = useT();
  return (
    <Card title={data.table ? t('Import into {table}', { table: t(data.table.title) }) : t('Import a CSV file')}>
      <Form method="post" encType="multipart/form-data" className="space-y-4" reloadDocument>
        <input type="hidden" name="intent" value="upload" />
        <div>
          <label htmlFor="import-table" className="block text-sm font-medium text-slate-800">
            {t('Table')}
          </label>
          <select
            id="import-table"
            name="table"
            defaultValue={data.table?.key ?? ''}
            className="input mt-1 bg-white"
            required
          >
            <option value="">{t('Choose a table')}</option>
            {data.tables.map((table) => (
              <option key={table.key} value={table.key}>
                {t(table.title)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="import-file" className="block text-sm font-medium text-slate-800">
            {t('CSV file')}
          </label>
          <input
            id="import-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            className="mt-1 block w-full text-sm"
          />
          <p className="mt-1 text-xs text-slate-600">
            {data.fields.length ? (
              // The columns are named in English, as the file names them.
              <WithData
                text={t(
                  'The first row names the columns, as Export Data writes them: {columns}. Nothing is written before you have seen the check.',
                  { columns: SLOT },
                )}
                data={data.fields.map((f) => f.label).join(', ')}
              />
            ) : (
              t(
                'The first row names the columns, as Export Data writes them. Nothing is written before you have seen the check.',
              )
            )}
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="updateById" />
          {t('Rows with an ID update that record instead of adding one')}
        </label>
        <Button type="submit">{t('Upload and check')}</Button>
      </Form>
    </Card>
  );
}

function ImportView({ data }: { data: ImportScreenData }) {
  const t = useT();
  const run = data.import!;
  const n = useCount();
  const busy = run.status === 'queued' || run.status === 'running';
  useRefreshEvery(1500, busy);
  const table = data.table!;
  return (
    <>
      {/* Without JavaScript the page reloads itself while the file is being read. */}
      {busy ? (
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
      ) : null}
      <Card
        title={
          <>
            <span translate="no">{run.fileName}</span> → {t(table.title)}
          </>
        }
      >
        <p className="text-sm text-slate-800" data-testid="import-status">
          <span className="font-semibold">{statusLabel(run.status, run.phase, t)}</span> · <Summary run={run} />
        </p>
        {busy ? (
          <p className="mt-2 text-sm text-slate-600" role="status">
            {run.phase === 'check'
              ? t('Checking: {count} rows read. This page updates itself.', { count: n(run.rowsRead) })
              : t('Importing: {count} rows read. This page updates itself.', { count: n(run.rowsRead) })}
          </p>
        ) : null}
        {run.error ? (
          <div className="mt-3">
            <Alert title={run.status === 'failed' ? t('Not imported') : t('Error')}>
              {/* Kept with the import as it was written. */}
              <span translate="no">{run.error}</span>
            </Alert>
          </div>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-3 text-sm">
          {run.hasRefused ? (
            <a className="text-blue-700 underline" href={`/imports/refused?id=${run.id}`} download>
              {t('Download the refused rows (CSV)')}
            </a>
          ) : null}
          <Link className="text-blue-700 underline" to={`/imports?table=${table.key}`}>
            {t('Import another file')}
          </Link>
        </div>
      </Card>
      {data.outcome ? <Check data={data} outcome={data.outcome} /> : null}
      {run.canRun ? <RunForm data={data} /> : null}
    </>
  );
}

function statusLabel(status: string, phase: string, t: Translate): string {
  if (status === 'queued') return t('Waiting');
  if (status === 'running') return phase === 'check' ? t('Checking') : t('Importing');
  if (status === 'checked') return t('Checked');
  if (status === 'completed') return t('Imported');
  return t('Failed');
}

function Check({ data, outcome }: { data: ImportScreenData; outcome: StoredOutcome }) {
  const t = useT();
  const run = data.import!;
  const n = useCount();
  const editable = run.canRun;
  const shown = data.fields;
  return (
    <>
      <Card title={t('Columns')}>
        {outcome.missing.length ? (
          <div className="mb-3">
            <Alert tone="warning" title={t('Required fields without a column')}>
              {outcome.missing.map((label) => t(label)).join(', ')}
            </Alert>
          </div>
        ) : null}
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="columns" />
          <input type="hidden" name="id" value={run.id} />
          <table className="min-w-full text-sm">
            <thead>
              <tr className="text-left text-slate-600">
                <th className="py-1 pr-4 font-medium">{t('Field')}</th>
                <th className="py-1 font-medium">{t('Column of the file')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((field) => {
                const at = outcome.columns.mapping[field.name];
                return (
                  <tr key={field.name} className="border-t border-slate-100">
                    <td className="py-1 pr-4 text-slate-800">
                      <label htmlFor={`column-${field.name}`}>
                        {t(field.label)}
                        {field.required ? ' *' : ''}
                      </label>
                    </td>
                    <td className="py-1">
                      <select
                        id={`column-${field.name}`}
                        name={`column.${field.name}`}
                        defaultValue={at === null || at === undefined ? '' : String(at)}
                        disabled={!editable}
                        className="input bg-white"
                      >
                        <option value="">{t('Not imported')}</option>
                        {outcome.headers.map((header, index) => (
                          <option key={index} value={index} translate={header ? 'no' : undefined}>
                            {header || t('Column {number}', { number: index + 1 })}
                          </option>
                        ))}
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {editable ? (
            <Button type="submit" variant="secondary">
              {t('Check again with these columns')}
            </Button>
          ) : null}
        </Form>
      </Card>
      {outcome.sample.length ? (
        <Card title={t('First rows as they will be stored')}>
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm" data-testid="import-preview">
              <thead>
                <tr className="text-left text-slate-600">
                  <th className="py-1 pr-3 font-medium">{t('Line')}</th>
                  {shown.map((f) => (
                    <th key={f.name} className="py-1 pr-3 font-medium">
                      {t(f.label)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {outcome.sample.map((row) => (
                  <tr key={row.line} className="border-t border-slate-100">
                    <td className="py-1 pr-3 text-slate-600">{row.line}</td>
                    {shown.map((f) => (
                      <td key={f.name} className="py-1 pr-3 text-slate-800" translate="no">
                        {row.values[f.name] === null || row.values[f.name] === undefined
                          ? ''
                          : String(row.values[f.name])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
      {outcome.errors.length ? (
        <Card title={t('Invalid rows ({count})', { count: n(run.invalid) })}>
          <table className="min-w-full text-sm" data-testid="import-errors">
            <thead>
              <tr className="text-left text-slate-600">
                <th className="py-1 pr-3 font-medium">{t('Line')}</th>
                <th className="py-1 pr-3 font-medium">{t('Field')}</th>
                <th className="py-1 font-medium">{t('Problem')}</th>
              </tr>
            </thead>
            <tbody>
              {outcome.errors.map((e, i) => {
                const label = data.fields.find((f) => f.name === e.field)?.label;
                return (
                  <tr key={i} className="border-t border-slate-100">
                    <td className="py-1 pr-3 text-slate-600">{e.line}</td>
                    <td className="py-1 pr-3 text-slate-800" translate={label ? undefined : 'no'}>
                      {label ? t(label) : e.field}
                    </td>
                    {/* Kept with the import as the check wrote it. */}
                    <td className="py-1 text-slate-800" translate="no">
                      {e.message}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {(run.invalid ?? 0) > outcome.errors.length ? (
            <p className="mt-2 text-xs text-slate-600">
              {t('The first {count} problems are shown; the refused rows download has every one.', {
                count: outcome.errors.length,
              })}
            </p>
          ) : null}
        </Card>
      ) : null}
    </>
  );
}

function RunForm({ data }: { data: ImportScreenData }) {
  const t = useT();
  const f = useFormats();
  const run = data.import!;
  const n = useCount();
  const valid = run.valid ?? 0;
  const invalid = run.invalid ?? 0;
  return (
    <Card title={t('Import')}>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="import" />
        <input type="hidden" name="id" value={run.id} />
        {run.duplicate ? (
          <>
            <Alert tone="warning" title={t('Imported before')}>
              {t(
                'This file was already imported into {table} on {when} (import #{id}). Import it again only if its rows are not there yet.',
                { table: t(data.table!.title), when: f.instant(run.duplicate.importedAt), id: run.duplicate.id },
              )}
            </Alert>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="allowDuplicate" />
              {t('Import this file again')}
            </label>
          </>
        ) : null}
        <p className="text-sm text-slate-700">
          {invalid
            ? t(
                '{valid} valid rows, {invalid} invalid. Import all writes every row or none; Import valid rows leaves the invalid ones out.',
                { valid: n(valid), invalid: n(invalid) },
              )
            : t(
                '{valid} valid rows. Import all writes every row or none; Import valid rows leaves the invalid ones out.',
                { valid: n(valid) },
              )}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="mode" value="all" disabled={invalid > 0 || valid === 0}>
            {t('Import all')}
          </Button>
          <Button type="submit" name="mode" value="valid" variant="secondary" disabled={valid === 0}>
            {t('Import valid rows')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
