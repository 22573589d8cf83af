// /login: the sign-in screen; its loader, action, headers and access live in
// app/features/auth/login-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import type { ActionAnswer } from '../platform/screen/action-result.tsx';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import type { loader } from '../features/auth/login-route.server.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, headers, loader } from '../features/auth/login-route.server.ts';

export const meta: MetaFunction = ({ matches }) => {
  const t = metaTranslate(matches);
  return [{ title: `${t('Sign in')} · Group Finance Hub` }];
};

export default function LoginPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionAnswer>();
  return <LoginScreen data={data} actionData={actionData} />;
}
