// The Create Backup tab: no field is required; an empty name becomes 'Manual
// Backup' and the time, no table checked means every table. The service's zod schema validates
// the post; conform puts its field errors next to the fields (with or without JavaScript).
import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { Button, Card, Field, inputClass } from '../../ui/form.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import type { TableChoice } from './types.ts';

const checkboxClass = 'h-4 w-4 rounded border-slate-300 text-blue-700';

/** The name the service gives an unnamed backup (with the date and time): stored, so never translated. */
const DEFAULT_NAME = 'Manual Backup';

/** `tables`: those the user may read (a backup holds nothing else); `auditTrail`: whether they read the audit trail. */
export function CreateBackupForm({
  tables,
  auditTrail,
  lastResult,
}: {
  tables: TableChoice[];
  auditTrail: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const t = useT();
  const [form, fields] = useForm({ id: 'create-backup', lastResult, shouldValidate: 'onSubmit' });
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'create';
  const tableInputs = getCollectionProps(fields.tables, { type: 'checkbox', options: tables.map((t) => t.name) });
  const tablesError = fields.tables.errors?.[0];
  return (
    <Card title={t('Create Backup')}>
      <Form method="post" {...getFormProps(form)} className="space-y-5" preventScrollReset>
        <input type="hidden" name="intent" value="create" />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t('Name')}
            id={fields.name.id}
            error={fields.name.errors}
            hint={t('Optional: defaults to {name} and the current date and time.', { name: `'${DEFAULT_NAME}'` })}
          >
            <input
              {...getInputProps(fields.name, { type: 'text' })}
              maxLength={255}
              placeholder={t('{name} + current date and time', { name: DEFAULT_NAME })}
              className={inputClass}
            />
          </Field>
          <Field label={t('Description')} id={fields.description.id} error={fields.description.errors}>
            <textarea {...getTextareaProps(fields.description)} rows={2} maxLength={2000} className={inputClass} />
          </Field>
        </div>
        <fieldset aria-describedby={tablesError ? `${fields.tables.id}-error` : 'backup-tables-hint'}>
          <legend className="text-sm font-medium text-slate-700">{t('Tables')}</legend>
          <p id="backup-tables-hint" className="mt-1 text-xs text-slate-500">
            {t('None checked: every table listed here is backed up.')}
          </p>
          <div className="mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            {tableInputs.map(({ key, ...props }, i) => (
              <label key={key ?? props.value} className="flex items-center gap-2 text-sm text-slate-700">
                <input {...props} className={checkboxClass} />
                {t(tables[i].label)}
              </label>
            ))}
          </div>
          {tablesError ? (
            <p
              id={`${fields.tables.id}-error`}
              className="mt-1 text-sm text-red-700"
              data-testid={`${fields.tables.id}-error`}
            >
              {tablesError}
            </p>
          ) : null}
        </fieldset>
        {auditTrail ? (
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">{t('Options')}</legend>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input {...getInputProps(fields.includeAuditLogs, { type: 'checkbox' })} className={checkboxClass} />
              {t('Include audit logs')}
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input {...getInputProps(fields.includeVersions, { type: 'checkbox' })} className={checkboxClass} />
              {t('Include versions')}
            </label>
          </fieldset>
        ) : null}
        <Button type="submit" disabled={submitting}>
          {submitting ? t('Creating...') : t('Create Backup')}
        </Button>
      </Form>
    </Card>
  );
}
