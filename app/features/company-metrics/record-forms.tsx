// The Vult screens' forms: the declared resource's own form (ResourceForm) with the company
// fixed to Vult, open for editing through the URL (?edit=ID) or always there to add a row.
import { useActionData } from '@remix-run/react';
import type { FormChoices, ResourceDef } from '../../platform/resources/define.ts';
import { ResourceForm } from '../../platform/resources/resource-form.tsx';
import { resultFor, useCloseUrl, type ActionAnswer } from '../../platform/screen/action-result.tsx';
import { FormPanel } from '../../ui/form-panel.tsx';
import { usePreferences, useT } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';
import type { Locale } from '../../platform/i18n/locales.ts';
import { nounInText } from '../../platform/resources/noun.ts';

interface FixedCompany {
  id: number;
  name: string;
}

// The only reference field (the company) is fixed: its one choice names it on the form.
const choicesOf = (company: FixedCompany): FormChoices => ({
  filter: [],
  companies: [{ value: String(company.id), label: company.name }],
});

/** 'Edit Subscriber Metrics', 'Edit Subscriber Level', 'Edit Card Type', in the reader's language. */
export function editTitle(def: ResourceDef, t: Translate, locale: Locale): string {
  const title = def.formTitles?.edit;
  return title ? t(title) : t('Edit {noun}', { noun: nounInText(t(def.noun), locale) });
}

export function EditPanel({
  def,
  record,
  company,
}: {
  def: ResourceDef;
  record: Record<string, unknown> & { id: number };
  company: FixedCompany;
}) {
  const actionData = useActionData<ActionAnswer>();
  const closeTo = useCloseUrl();
  const t = useT();
  const { locale } = usePreferences();
  return (
    <FormPanel title={editTitle(def, t, locale)} closeTo={closeTo}>
      <ResourceForm
        key={`edit-${record.id}`}
        def={def}
        record={record}
        choices={choicesOf(company)}
        lastResult={resultFor(actionData, 'update')}
        cancelTo={closeTo}
        fixed={{ companyId: String(company.id) }}
      />
    </FormPanel>
  );
}

/**
 * An add form that stays on the page. `generation` changes after each saved row (the row
 * count), so the form starts afresh instead of keeping what was just saved.
 */
export function AddForm({ def, company, generation }: { def: ResourceDef; company: FixedCompany; generation: number }) {
  const actionData = useActionData<ActionAnswer>();
  const closeTo = useCloseUrl();
  return (
    <ResourceForm
      key={`${def.key}-${generation}`}
      def={def}
      record={null}
      choices={choicesOf(company)}
      lastResult={resultFor(actionData, 'create')}
      cancelTo={closeTo}
      fixed={{ companyId: String(company.id) }}
    />
  );
}
