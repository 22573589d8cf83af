// /two-factor: the screen; its loader, action, headers and access live in
// app/features/auth/two-factor-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { TwoFactorScreen, type TwoFactorAction } from '../features/auth/two-factor-screen.tsx';
import type { loader } from '../features/auth/two-factor-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, headers, loader } from '../features/auth/two-factor-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/two-factor'))} · Group Finance Hub` },
];

export default function TwoFactorPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<TwoFactorAction>();
  return <TwoFactorScreen data={data} actionData={actionData} />;
}
