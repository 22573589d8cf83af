// /profile: the screen; its loader, action, headers and access live in
// app/features/settings/profile-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import type { ActionAnswer } from '../platform/screen/action-result.tsx';
import { ProfileScreen } from '../features/settings/profile-screen.tsx';
import type { loader } from '../features/settings/profile-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, headers, loader } from '../features/settings/profile-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/profile'))} · Group Finance Hub` },
];

export default function ProfilePage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionAnswer>();
  return <ProfileScreen data={data} actionData={actionData} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
