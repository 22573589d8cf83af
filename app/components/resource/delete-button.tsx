// Delete with the specification's confirmation: confirm() with JavaScript; without it the
// server answers a confirmation step first (see ConfirmDelete).
import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Alert, Button } from '../ui/form.tsx';
import { TrashIcon } from '../ui/icons.tsx';

export function DeleteButton({ id, message, label, children }: { id: number; message: string; label: string; children?: ReactNode }) {
  return (
    <Form
      method="post"
      preventScrollReset
      onSubmit={(event) => {
        if (!window.confirm(message)) {
          event.preventDefault();
          return;
        }
        const confirmed = event.currentTarget.elements.namedItem('confirmed') as HTMLInputElement | null;
        if (confirmed) confirmed.value = '1';
      }}
    >
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="confirmed" value="" />
      <button type="submit" className="rounded p-1.5 text-red-600 hover:bg-red-50" title="Delete" aria-label={`Delete ${label}`}>
        {children ?? <TrashIcon className="h-4 w-4" />}
      </button>
    </Form>
  );
}

export function ConfirmDelete({ id, message, cancelTo }: { id: number; message: string; cancelTo: string }) {
  return (
    <div className="mb-6" data-testid="confirm-delete">
      <Alert tone="warning" title="Confirm delete">
        <p className="mt-1">{message}</p>
        <div className="mt-3 flex gap-2">
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={id} />
            <input type="hidden" name="confirmed" value="1" />
            <Button type="submit" variant="danger">Confirm</Button>
          </Form>
          <Link to={cancelTo} className="inline-flex items-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Cancel
          </Link>
        </div>
      </Alert>
    </div>
  );
}
