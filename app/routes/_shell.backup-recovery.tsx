// /backup-recovery: the screen; its loader, action and access live in
// app/features/backups/backup-recovery-route.server.ts.
import type { MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { BackupRecoveryScreen, type BackupRecoveryAction } from '../features/backups/backup-recovery-screen.tsx';
import type { action, loader } from '../features/backups/backup-recovery-route.server.ts';
import { screenTitle } from '../platform/screen/navigation.ts';
import { metaTranslate } from '../platform/i18n/meta-translate.ts';

export { access, action, loader } from '../features/backups/backup-recovery-route.server.ts';

export const meta: MetaFunction = ({ matches }) => [
  { title: `${metaTranslate(matches)(screenTitle('/backup-recovery'))} · Group Finance Hub` },
];

export default function BackupRecovery() {
  const data = useLoaderData<typeof loader>();
  const actionData = (useActionData<typeof action>() ?? null) as BackupRecoveryAction | null;
  return <BackupRecoveryScreen data={data} actionData={actionData} />;
}

export { ShellErrorBoundary as ErrorBoundary } from '../features/shell/error-screen.tsx';
