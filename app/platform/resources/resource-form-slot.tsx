// The resource form as the list screens show it. A list page is mostly read, so the browser
// loads the form's module (with conform) only when a form is shown: the server renders the form
// in place from a static import (resource-form-ssr.server.ts, empty in the browser build), and
// the browser imports it lazily. Both render it inside one Suspense boundary, so a page served
// with a form open hydrates the server's markup once the module has arrived (React keeps it
// as it is until then), and a form opened later shows when its module is there.
import { lazy, Suspense, type ComponentProps } from 'react';
import * as onServer from './resource-form-ssr.server.ts';
import type { ResourceForm } from './resource-form.tsx';

type Props = ComponentProps<typeof ResourceForm>;

// The form's zod checks (which the form imports once mounted) are fetched alongside.
const LazyResourceForm = lazy(() => {
  void import('./resource-validation.ts');
  return import('./resource-form.tsx').then((module) => ({ default: module.ResourceForm }));
});

export function ResourceFormSlot(props: Props) {
  const ServerForm = (onServer as { ResourceForm?: typeof ResourceForm }).ResourceForm;
  return (
    <Suspense fallback={null}>{ServerForm ? <ServerForm {...props} /> : <LazyResourceForm {...props} />}</Suspense>
  );
}
