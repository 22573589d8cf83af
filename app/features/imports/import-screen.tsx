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
    summary: string;
    error: string | null;
    hasRefused: boolean;
    canRun: boolean;
    duplicate: string | null;
  } | null;
  outcome: StoredOutcome | null;
}

const n = (v: number | null | undefined) => (v ?? 0).toLocaleString('en-US');

export function ImportScreen({ data, actionData }: { data: ImportScreenData; actionData: ActionAnswer | undefined }) {
  const failure = formErrorOf(actionData);
  const fieldErrors = actionData?.result?.error ?? {};
  const fileError = fieldErrors.file?.[0] ?? fieldErrors.table?.[0];
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeading title={screenTitle('/imports')} />
      {failure ? <Alert title="Error">{failure}</Alert> : null}
      {fileError ? <Alert title="Error">{fileError}</Alert> : null}
      {data.kind === 'upload' ? <UploadForm data={data} /> : <ImportView data={data} />}
    </div>
  );
}

function UploadForm({ data }: { data: ImportScreenData }) {
  return (
    <Card title={data.table ? `Import into ${data.table.title}` : 'Import a CSV file'}>
      <Form method="post" encType="multipart/form-data" className="space-y-4" reloadDocument>
        <input type="hidden" name="intent" value="upload" />
        <div>
          <label htmlFor="import-table" className="block text-sm font-medium text-slate-800">
            Table
          </label>
          <select
            id="import-table"
            name="table"
            defaultValue={data.table?.key ?? ''}
            className="input mt-1 bg-white"
            required
          >
            <option value="">Choose a table</option>
            {data.tables.map((t) => (
              <option key={t.key} value={t.key}>
                {t.title}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="import-file" className="block text-sm font-medium text-slate-800">
            CSV file
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
            The first row names the columns, as Export Data writes them
            {data.fields.length ? `: ${data.fields.map((f) => f.label).join(', ')}` : ''}. Nothing is written before you
            have seen the check.
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="updateById" />
          Rows with an ID update that record instead of adding one
        </label>
        <Button type="submit">Upload and check</Button>
      </Form>
    </Card>
  );
}

function ImportView({ data }: { data: ImportScreenData }) {
  const run = data.import!;
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
      <Card title={`${run.fileName} → ${table.title}`}>
        <p className="text-sm text-slate-800" data-testid="import-status">
          <span className="font-semibold">{statusLabel(run.status, run.phase)}</span> · {run.summary}
        </p>
        {busy ? (
          <p className="mt-2 text-sm text-slate-600" role="status">
            {run.phase === 'check' ? 'Checking' : 'Importing'}: {n(run.rowsRead)} rows read. This page updates itself.
          </p>
        ) : null}
        {run.error ? (
          <div className="mt-3">
            <Alert title={run.status === 'failed' ? 'Not imported' : 'Error'}>{run.error}</Alert>
          </div>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-3 text-sm">
          {run.hasRefused ? (
            <a className="text-blue-700 underline" href={`/imports/refused?id=${run.id}`} download>
              Download the refused rows (CSV)
            </a>
          ) : null}
          <Link className="text-blue-700 underline" to={`/imports?table=${table.key}`}>
            Import another file
          </Link>
        </div>
      </Card>
      {data.outcome ? <Check data={data} outcome={data.outcome} /> : null}
      {run.canRun ? <RunForm data={data} /> : null}
    </>
  );
}

function statusLabel(status: string, phase: string): string {
  if (status === 'queued') return 'Waiting';
  if (status === 'running') return phase === 'check' ? 'Checking' : 'Importing';
  if (status === 'checked') return 'Checked';
  if (status === 'completed') return 'Imported';
  return 'Failed';
}

function Check({ data, outcome }: { data: ImportScreenData; outcome: StoredOutcome }) {
  const run = data.import!;
  const editable = run.canRun;
  const shown = data.fields;
  return (
    <>
      <Card title="Columns">
        {outcome.missing.length ? (
          <div className="mb-3">
            <Alert tone="warning" title="Required fields without a column">
              {outcome.missing.join(', ')}
            </Alert>
          </div>
        ) : null}
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="columns" />
          <input type="hidden" name="id" value={run.id} />
          <table className="min-w-full text-sm">
            <thead>
              <tr className="text-left text-slate-600">
                <th className="py-1 pr-4 font-medium">Field</th>
                <th className="py-1 font-medium">Column of the file</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((field) => {
                const at = outcome.columns.mapping[field.name];
                return (
                  <tr key={field.name} className="border-t border-slate-100">
                    <td className="py-1 pr-4 text-slate-800">
                      <label htmlFor={`column-${field.name}`}>
                        {field.label}
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
                        <option value="">Not imported</option>
                        {outcome.headers.map((header, index) => (
                          <option key={index} value={index}>
                            {header || `Column ${index + 1}`}
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
              Check again with these columns
            </Button>
          ) : null}
        </Form>
      </Card>
      {outcome.sample.length ? (
        <Card title="First rows as they will be stored">
          <div className="overflow-x-auto">
            <table className="min-w-full text-sm" data-testid="import-preview">
              <thead>
                <tr className="text-left text-slate-600">
                  <th className="py-1 pr-3 font-medium">Line</th>
                  {shown.map((f) => (
                    <th key={f.name} className="py-1 pr-3 font-medium">
                      {f.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {outcome.sample.map((row) => (
                  <tr key={row.line} className="border-t border-slate-100">
                    <td className="py-1 pr-3 text-slate-600">{row.line}</td>
                    {shown.map((f) => (
                      <td key={f.name} className="py-1 pr-3 text-slate-800">
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
        <Card title={`Invalid rows (${n(run.invalid)})`}>
          <table className="min-w-full text-sm" data-testid="import-errors">
            <thead>
              <tr className="text-left text-slate-600">
                <th className="py-1 pr-3 font-medium">Line</th>
                <th className="py-1 pr-3 font-medium">Field</th>
                <th className="py-1 font-medium">Problem</th>
              </tr>
            </thead>
            <tbody>
              {outcome.errors.map((e, i) => (
                <tr key={i} className="border-t border-slate-100">
                  <td className="py-1 pr-3 text-slate-600">{e.line}</td>
                  <td className="py-1 pr-3 text-slate-800">
                    {data.fields.find((f) => f.name === e.field)?.label ?? e.field}
                  </td>
                  <td className="py-1 text-slate-800">{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {(run.invalid ?? 0) > outcome.errors.length ? (
            <p className="mt-2 text-xs text-slate-600">
              The first {outcome.errors.length} problems are shown; the refused rows download has every one.
            </p>
          ) : null}
        </Card>
      ) : null}
    </>
  );
}

function RunForm({ data }: { data: ImportScreenData }) {
  const run = data.import!;
  const valid = run.valid ?? 0;
  const invalid = run.invalid ?? 0;
  return (
    <Card title="Import">
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="import" />
        <input type="hidden" name="id" value={run.id} />
        {run.duplicate ? (
          <>
            <Alert tone="warning" title="Imported before">
              {run.duplicate}
            </Alert>
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" name="allowDuplicate" />
              Import this file again
            </label>
          </>
        ) : null}
        <p className="text-sm text-slate-700">
          {n(valid)} valid rows{invalid ? `, ${n(invalid)} invalid` : ''}. Import all writes every row or none; Import
          valid rows leaves the invalid ones out.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="mode" value="all" disabled={invalid > 0 || valid === 0}>
            Import all
          </Button>
          <Button type="submit" name="mode" value="valid" variant="secondary" disabled={valid === 0}>
            Import valid rows
          </Button>
        </div>
      </Form>
    </Card>
  );
}
