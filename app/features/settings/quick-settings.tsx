// i18n-area: shell
// The gear of the top bar. Without JavaScript it is a plain link to /settings; with JavaScript
// it opens a pop-over whose panel (quick-settings-panel.tsx) loads as a chunk of its own the
// first time it opens, so every page's JavaScript stays small.
import { lazy, Suspense } from 'react';
import { AppLink } from '../../ui/app-link.tsx';
import { useHydrated } from '../../platform/lib/use-hydrated.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { GearIcon } from '../../ui/icons.tsx';
import { Popover } from '../../ui/popover.tsx';

const QuickSettingsPanel = lazy(() => import('./quick-settings-panel.tsx'));

const GEAR_CLASS = 'rounded p-2 text-slate-600 hover:bg-slate-100';

export function SettingsGear() {
  const hydrated = useHydrated();
  const t = useT();
  if (!hydrated) {
    return (
      <AppLink to="/settings" className={GEAR_CLASS} title={t('Settings')} aria-label={t('Settings')}>
        <GearIcon />
      </AppLink>
    );
  }
  return (
    <Popover
      button={{
        className: GEAR_CLASS,
        title: t('Settings'),
        label: t('Settings'),
        testId: 'settings-gear',
        content: <GearIcon />,
      }}
      panel={{
        className:
          'absolute right-0 top-full z-50 mt-1 w-80 max-w-[calc(100vw-1rem)] rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-lg',
        label: t('Quick settings'),
      }}
    >
      {(close) => (
        <Suspense fallback={<Loading />}>
          <QuickSettingsPanel onClose={close} />
        </Suspense>
      )}
    </Popover>
  );
}

function Loading() {
  const t = useT();
  return <p className="text-slate-500">{t('Loading settings…')}</p>;
}
