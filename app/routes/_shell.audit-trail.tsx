// /audit-trail: the screen; its loader, action and access live in
// app/features/audit/audit-trail-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { AuditTrailScreen, type AuditTrailAction } from '../features/audit/audit-trail-screen.tsx';
import type { action, loader } from '../features/audit/audit-trail-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/audit/audit-trail-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/audit-trail'))} · Group Finance Hub` },
];

export default function AuditTrail() {
  const data = useLoaderData<typeof loader>();
  const actionData = (useActionData<typeof action>() ?? null) as AuditTrailAction | null;
  return <AuditTrailScreen data={data} actionData={actionData} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
