// The Vult screens' forms: the declared resource's own form (ResourceForm) with the company
// fixed to Vult, open for editing through the URL (?edit=ID) or always there to add a row.
import { useActionData } from '@remix-run/react';
import type { FormChoices, ResourceDef } from '../../resources/define.ts';
import { ResourceForm } from '../form/resource-form.tsx';
import { resultFor, useCloseUrl, type ActionAnswer } from '../screen/action-result.tsx';
import { FormPanel } from '../ui/form-panel.tsx';

// The only reference field (the company) is fixed, so the forms need no choices.
const NO_CHOICES: FormChoices = { filter: [] };

/** 'Edit Subscriber Metrics', 'Edit Subscriber Level', 'Edit Card Type'. */
export function editTitle(def: ResourceDef): string {
  return def.formTitles?.edit ?? `Edit ${def.noun}`;
}

export function EditPanel({ def, record, companyId }: { def: ResourceDef; record: Record<string, unknown> & { id: number }; companyId: number }) {
  const actionData = useActionData<ActionAnswer>();
  const closeTo = useCloseUrl();
  return (
    <FormPanel title={editTitle(def)} closeTo={closeTo}>
      <ResourceForm
        key={`edit-${record.id}`}
        def={def}
        record={record}
        choices={NO_CHOICES}
        lastResult={resultFor(actionData, 'update')}
        cancelTo={closeTo}
        fixed={{ companyId: String(companyId) }}
      />
    </FormPanel>
  );
}

/**
 * An add form that stays on the page. `generation` changes after each saved row (the row
 * count), so the form starts afresh instead of keeping what was just saved.
 */
export function AddForm({ def, companyId, generation }: { def: ResourceDef; companyId: number; generation: number }) {
  const actionData = useActionData<ActionAnswer>();
  const closeTo = useCloseUrl();
  return (
    <ResourceForm
      key={`${def.key}-${generation}`}
      def={def}
      record={null}
      choices={NO_CHOICES}
      lastResult={resultFor(actionData, 'create')}
      cancelTo={closeTo}
      fixed={{ companyId: String(companyId) }}
    />
  );
}
