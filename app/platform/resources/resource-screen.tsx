// The list screen of a declared resource: heading with Export Data and Add, the form (panel
// or dialog, from the URL), the delete confirmation step, and the table.
import { useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { AppLink } from '../../ui/app-link.tsx';
import type { ReactNode } from 'react';
import type { FieldDef, ResourceDef } from './define.ts';
import type { ResourceLoaderData } from './resource-screen.server.ts';
import { unpackRows } from '../lib/packed-rows.ts';
import type { ScreenRowOf } from '../screen/screen-rows.ts';
import { FORM_PARAMS, withParams } from '../lib/url.ts';
import { PageHeading } from '../../ui/page-heading.tsx';
import { ResourceFormSlot } from './resource-form-slot.tsx';
import { DataTable, ListToolbar } from './data-table.tsx';
import { formErrorOf, resultFor, useCloseUrl, type ActionAnswer } from '../screen/action-result.tsx';
import { Alert, Card } from '../../ui/form.tsx';
import { FormPanel } from '../../ui/form-panel.tsx';
import { DownloadIcon, PlusIcon, UploadIcon } from '../../ui/icons.tsx';
import { ConfirmDelete } from './delete-button.tsx';
import { usePreferences, useT } from '../i18n/i18n-context.tsx';
import { nounInText } from './noun.ts';

interface ScreenProps<D extends ResourceDef = ResourceDef> {
  def: D;
  title?: string;
  /** Fields fixed by the screen (hidden in the form). */
  fixed?: Record<string, string>;
  optionsFor?: (field: FieldDef) => readonly string[] | undefined;
  /** List parameters the export must carry besides the URL's own (fixed filters). */
  exportParams?: Record<string, string>;
  /** URL parameters the search form keeps (a tab). */
  keep?: Record<string, string | null>;
  /** Content between the heading and the table (tabs, counts). */
  children?: ReactNode;
  extraCell?: { label: string; render: (row: ScreenRowOf<D>) => ReactNode };
}

export function exportHref(def: ResourceDef, search: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(search);
  for (const key of [...FORM_PARAMS, 'page']) params.delete(key);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return `/export/${def.key}${text ? `?${text}` : ''}`;
}

export function ExportButton({ href }: { href: string }) {
  const t = useT();
  return (
    <a href={href} download className="btn-secondary">
      <DownloadIcon className="h-4 w-4" /> {t('Export Data')}
    </a>
  );
}

/** Import Data: the upload of a CSV file into this resource (docs/imports.md). */
export function ImportButton({ def }: { def: ResourceDef }) {
  const t = useT();
  return (
    <AppLink to={`/imports?table=${def.key}`} className="btn-secondary">
      <UploadIcon className="h-4 w-4" /> {t('Import Data')}
    </AppLink>
  );
}

export function AddButton({ noun }: { noun: string }) {
  const { search } = useLocation();
  const t = useT();
  const { locale } = usePreferences();
  return (
    <AppLink to={withParams(search, { new: 1, edit: null })} className="btn-primary">
      <PlusIcon className="h-4 w-4" /> {t('Add {noun}', { noun: nounInText(t(noun), locale) })}
    </AppLink>
  );
}

/** The form panel, the delete confirmation and a failed row action, driven by the URL and the last action. */
export function ResourceOverlays({ def, fixed, optionsFor }: Pick<ScreenProps, 'def' | 'fixed' | 'optionsFor'>) {
  const data = useLoaderData<ResourceLoaderData>();
  const actionData = useActionData<ActionAnswer & { id?: number; message?: string; subject?: string }>();
  const closeTo = useCloseUrl();
  const t = useT();
  const { locale } = usePreferences();
  const noun = nounInText(t(def.noun), locale);
  const formOpen = data.creating || data.editing;
  const formIntent = data.editing ? 'update' : 'create';
  // A form's own failure shows in the form; any other action's (a delete, a remap) up here.
  const rowFailure = formOpen && actionData?.intent === formIntent ? null : formErrorOf(actionData);
  return (
    <>
      {actionData?.intent === 'confirm-delete' && actionData.id && actionData.message ? (
        <ConfirmDelete
          id={actionData.id}
          message={actionData.message}
          subject={actionData.subject}
          cancelTo={closeTo}
        />
      ) : null}
      {rowFailure ? (
        <div className="mb-4">
          <Alert title={t('Error')}>{rowFailure}</Alert>
        </div>
      ) : null}
      {formOpen ? (
        <FormPanel
          title={
            data.editing
              ? def.formTitles
                ? t(def.formTitles.edit)
                : t('Edit {noun}', { noun })
              : def.formTitles
                ? t(def.formTitles.create)
                : t('Add {noun}', { noun })
          }
          closeTo={closeTo}
        >
          <ResourceFormSlot
            key={data.editing ? `edit-${data.editing.id}` : 'new'}
            def={def}
            record={data.editing}
            choices={data.choices}
            lastResult={resultFor(actionData, formIntent)}
            cancelTo={closeTo}
            fixed={fixed}
            optionsFor={optionsFor}
          />
        </FormPanel>
      ) : null}
    </>
  );
}

export function ResourceScreen<D extends ResourceDef>({
  def,
  title,
  fixed,
  optionsFor,
  exportParams,
  keep,
  children,
  extraCell,
}: ScreenProps<D>) {
  const data = useLoaderData<ResourceLoaderData<D>>();
  const { search } = useLocation();
  const t = useT();
  return (
    <div>
      <PageHeading title={title ?? t(def.title)}>
        <div className="flex flex-wrap gap-2">
          <ExportButton href={exportHref(def, search, exportParams)} />
          {data.can.create ? <ImportButton def={def} /> : null}
          {data.can.create ? <AddButton noun={def.noun} /> : null}
        </div>
      </PageHeading>
      <ResourceOverlays def={def} fixed={fixed} optionsFor={optionsFor} />
      {children}
      <Card className="!p-0">
        <ListToolbar
          def={def}
          state={data.state}
          filterChoices={data.choices.filter}
          companyChoices={data.choices.companies}
          keep={keep}
        />
        <DataTable
          def={def}
          rows={unpackRows(data.rows)}
          state={data.state}
          total={data.total}
          page={data.page}
          pageCount={data.pageCount}
          pageSize={data.pageSize}
          canEdit={data.can.edit}
          canDelete={data.can.delete}
          extraCell={extraCell}
        />
      </Card>
    </div>
  );
}
