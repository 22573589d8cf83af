// A post that asks first: with JavaScript the browser's confirm(); without it the
// server answers the first post with a confirmation step (ConfirmStep), whose Confirm posts
// the same fields again with `confirmed=1`.
import { Form, Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Alert, Button } from '../../ui/form.tsx';
import { useT } from '../i18n/i18n-context.tsx';

type Fields = Record<string, string | number>;

function HiddenFields({ fields }: { fields: Fields }) {
  return Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

/**
 * The form of a post that asks first; `children` is its submit button. With an `id` and no
 * children it serves buttons elsewhere (`form={id}`, each with its own name and value), and the
 * message may depend on the button pressed.
 */
export function ConfirmingForm({
  id,
  message,
  fields,
  children,
}: {
  id?: string;
  message: string | ((button: HTMLButtonElement | null) => string);
  fields: Fields;
  children?: ReactNode;
}) {
  return (
    <Form
      id={id}
      method="post"
      discover="none"
      preventScrollReset
      onSubmit={(event) => {
        const button = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        if (!window.confirm(typeof message === 'string' ? message : message(button))) {
          event.preventDefault();
          return;
        }
        const confirmed = event.currentTarget.elements.namedItem('confirmed') as HTMLInputElement | null;
        if (confirmed) confirmed.value = '1';
      }}
    >
      <HiddenFields fields={fields} />
      <input type="hidden" name="confirmed" value="" />
      {children}
    </Form>
  );
}

/** The server's confirmation step: the message with Confirm (the same post, confirmed) and Cancel. */
export function ConfirmStep({
  title,
  message,
  subject,
  fields,
  cancelTo,
  danger,
  testId,
}: {
  title: string;
  message: string;
  subject?: string;
  fields: Fields;
  cancelTo: string;
  danger?: boolean;
  testId: string;
}) {
  const t = useT();
  return (
    <div className="mb-6" data-testid={testId}>
      <Alert tone="warning" title={title}>
        <p className="mt-1">{message}</p>
        {subject ? (
          <p className="mt-1 font-medium" data-testid="confirm-subject">
            {subject}
          </p>
        ) : null}
        <div className="mt-3 flex gap-2">
          <Form method="post" preventScrollReset>
            <HiddenFields fields={{ ...fields, confirmed: '1' }} />
            <Button type="submit" variant={danger ? 'danger' : undefined}>
              {t('Confirm')}
            </Button>
          </Form>
          <Link to={cancelTo} className="btn-secondary">
            {t('Cancel')}
          </Link>
        </div>
      </Alert>
    </div>
  );
}
