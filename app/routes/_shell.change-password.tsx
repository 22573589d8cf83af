// /change-password: the screen; its loader, action, headers and access live in
// app/features/auth/change-password-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { ChangePasswordScreen, type ChangePasswordAction } from '../features/auth/change-password-screen.tsx';
import type { loader } from '../features/auth/change-password-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, headers, loader } from '../features/auth/change-password-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/change-password'))} · Group Finance Hub` },
];

export default function ChangePasswordPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ChangePasswordAction>();
  return <ChangePasswordScreen data={data} actionData={actionData} />;
}
