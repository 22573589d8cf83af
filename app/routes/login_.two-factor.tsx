// /login/two-factor: the second step of a sign-in; its loader, action, headers and access live in
// app/features/auth/login-two-factor-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData } from '@remix-run/react';
import type { ActionAnswer } from '../platform/screen/action-result.tsx';
import { LoginTwoFactorScreen } from '../features/auth/login-two-factor-screen.tsx';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, headers, loader } from '../features/auth/login-two-factor-route.server.ts';

export const meta: MetaFunction = ({ matches }) => {
  const t = metaTranslate(matches);
  return [{ title: `${t('Two-factor authentication')} · Group Finance Hub` }];
};

export default function LoginTwoFactorPage() {
  const actionData = useActionData<ActionAnswer>();
  return <LoginTwoFactorScreen actionData={actionData} />;
}
