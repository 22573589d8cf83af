// /imports: the upload, check and outcome of a CSV import; its loader, action and access live in
// app/features/imports/import-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ImportScreen, type ImportScreenData } from '../features/imports/import-screen.tsx';
import type { ActionAnswer } from '../platform/screen/action-result.tsx';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/imports/import-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/imports'))} · Group Finance Hub` },
];

export default function Imports() {
  const data = useLoaderData<ImportScreenData>();
  const actionData = (useActionData() ?? undefined) as ActionAnswer | undefined;
  return <ImportScreen data={data} actionData={actionData} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
