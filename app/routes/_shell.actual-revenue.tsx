import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { ResourceScreen } from '../platform/resources/resource-screen.tsx';
import { resourceAction, resourceLoader } from '../platform/resources/resource-screen.server.ts';
import { requestI18n } from '../features/shell/index.server.ts';
import { actualRevenue } from '../features/finance/actual-revenue.ts';
import { resourceScreenAccess } from '../platform/screen/route-access.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/actual-revenue'))} · Group Finance Hub` },
];
export const access = resourceScreenAccess(actualRevenue);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(actualRevenue, args);
export const action = (args: ActionFunctionArgs) => resourceAction(actualRevenue, args, { i18n: requestI18n });

export default function Screen() {
  return <ResourceScreen def={actualRevenue} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
