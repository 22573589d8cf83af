// /expense-categories: the screen; its loader, action and access live in
// app/features/finance/expense-categories-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { ExpenseCategoriesScreen } from '../features/finance/expense-categories-screen.tsx';
import type { loader } from '../features/finance/expense-categories-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/finance/expense-categories-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/expense-categories'))} · Group Finance Hub` },
];

export default function ExpenseCategories() {
  const data = useLoaderData<typeof loader>();
  return <ExpenseCategoriesScreen data={data} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
