// Delete with a confirmation: confirm() with JavaScript; without it the
// server answers a confirmation step first (see ConfirmDelete).
import type { ReactNode } from 'react';
import { ConfirmingForm, ConfirmStep } from '../screen/confirm.tsx';
import { TrashIcon } from '../../ui/icons.tsx';
import { useT } from '../i18n/i18n-context.tsx';

export function DeleteButton({
  id,
  message,
  label,
  children,
}: {
  id: number;
  message: string;
  label: string;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <ConfirmingForm message={message} fields={{ intent: 'delete', id }}>
      <button
        type="submit"
        className="rounded p-1.5 text-red-600 hover:bg-red-50"
        title={t('Delete')}
        aria-label={t('Delete {label}', { label })}
      >
        {children ?? <TrashIcon className="h-4 w-4" />}
      </button>
    </ConfirmingForm>
  );
}

/** A list table row's delete button: it posts the table's DeleteForm with its id; styled and drawn by `.row-actions`. */
export function RowDeleteButton({ id, label, form }: { id: number; label: string; form: string }) {
  const t = useT();
  return <button form={form} name="id" value={id} title={t('Delete')} aria-label={t('Delete {label}', { label })} />;
}

/** One delete form for all rows of a table (less markup than a form per row): its buttons carry the id. */
export function DeleteForm({ id, message }: { id: string; message: (rowId: string) => string }) {
  return <ConfirmingForm id={id} message={(button) => message(button?.value ?? '')} fields={{ intent: 'delete' }} />;
}

/**
 * The server's answer to an unconfirmed post (confirmationStep): a delete by default, or the
 * step of another intent (`action`) with its own title.
 */
export function ConfirmDelete({
  id,
  message,
  cancelTo,
  action = 'delete',
  title,
  subject,
}: {
  id: number;
  message: string;
  cancelTo: string;
  action?: string;
  title?: string;
  subject?: string;
}) {
  const t = useT();
  return (
    <ConfirmStep
      title={title ?? t('Confirm delete')}
      message={message}
      subject={subject}
      fields={{ intent: action, id }}
      cancelTo={cancelTo}
      danger
      testId={`confirm-${action}`}
    />
  );
}
