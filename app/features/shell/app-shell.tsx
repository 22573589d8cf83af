// The signed-in layout: top bar, sidebar, breadcrumbs, footer. Reads the root loader's data,
// so route components and error boundaries alike can wrap their content in it.
import { Form, useLocation, useRouteLoaderData } from '@remix-run/react';
import { createContext, useContext, useEffect, useRef } from 'react';
import type { documentLoader } from './document.server.ts';
import { breadcrumbFor, sidebarGroups } from '../../platform/screen/navigation.ts';
import { NotificationBell } from '../notifications/index.ts';
import { SettingsGear } from '../settings/index.ts';
import { AppLink } from '../../ui/app-link.tsx';
import { CloseIcon, HomeIcon, LogoutIcon, MenuIcon, UserIcon } from '../../ui/icons.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export function useShell() {
  const data = useRouteLoaderData<typeof documentLoader>('root');
  return data?.shell ?? null;
}

/** True inside an AppShell: a screen's error boundary under the shell layout must not draw a second one. */
const InsideShell = createContext(false);

export function AppShell({ children }: { children: React.ReactNode }) {
  const inside = useContext(InsideShell);
  const shell = useShell();
  const location = useLocation();
  const toggle = useRef<HTMLInputElement>(null);
  const t = useT();
  // Client-side navigation keeps the page, so close the small-screen sidebar ourselves.
  useEffect(() => {
    if (toggle.current) toggle.current.checked = false;
  }, [location.pathname]);
  if (!shell || inside) return <>{children}</>;
  const restricted = shell.restricted;
  const crumb = breadcrumbFor(location.pathname);
  // The sidebar's current page, worked out once here (a NavLink per item matched the location
  // 23 times a render): the item whose path is the location's, as NavLink's `end` matched it.
  const current = location.pathname.replace(/(.)\/+$/, '$1').toLowerCase();

  return (
    <div className="flex min-h-full flex-col">
      <header className="app-header">
        {!restricted ? (
          <label
            htmlFor="sidebar-toggle"
            className="cursor-pointer rounded p-1 text-slate-600 hover:bg-slate-100 lg:hidden"
            title={t('Open navigation')}
            data-testid="sidebar-open"
          >
            <MenuIcon />
            <span className="sr-only">{t('Open navigation')}</span>
          </label>
        ) : null}
        <AppLink to="/" className="font-semibold text-slate-900">
          <span className="hidden sm:inline" translate="no">
            Group Finance Hub
          </span>
          <span className="sm:hidden">GFH</span>
        </AppLink>
        <div className="ml-auto flex items-center gap-1">
          {!restricted ? (
            <>
              <NotificationBell count={shell.notifications} />
              <SettingsGear />
              <AppLink to="/profile" className="header-action">
                <UserIcon className="h-4 w-4" /> {t('Profile')}
              </AppLink>
            </>
          ) : null}
          <Form method="post" action="/logout">
            <button type="submit" className="header-action">
              <LogoutIcon className="h-4 w-4" /> {t('Logout')}
            </button>
          </Form>
        </div>
      </header>

      <div className="flex flex-1">
        {!restricted ? (
          <>
            {/* A checkbox drives the small-screen sidebar, so it opens without JavaScript. */}
            <input
              ref={toggle}
              id="sidebar-toggle"
              type="checkbox"
              className="peer sr-only"
              tabIndex={-1}
              aria-hidden="true"
            />
            {/* The dimmed backdrop closes the sidebar when tapped; the menu button is its named control. */}
            {/* eslint-disable-next-line jsx-a11y/label-has-associated-control -- a backdrop, hidden from assistive technology */}
            <label
              htmlFor="sidebar-toggle"
              className="fixed inset-0 z-30 hidden bg-slate-900/40 peer-checked:block lg:!hidden"
              aria-hidden="true"
              data-testid="sidebar-overlay"
            />
            <nav aria-label={t('Main navigation')} data-testid="sidebar" className="sidebar">
              <div className="mb-2 flex justify-end lg:hidden">
                <label
                  htmlFor="sidebar-toggle"
                  className="cursor-pointer rounded p-1 text-slate-600 hover:bg-slate-100"
                  title={t('Close navigation')}
                >
                  <CloseIcon />
                  <span className="sr-only">{t('Close navigation')}</span>
                </label>
              </div>
              {sidebarGroups(shell.sidebar).map((group) => (
                <details key={group.name} open>
                  <summary>{t(group.name)}</summary>
                  <ul>
                    {group.items.map((item) => (
                      <li key={item.path}>
                        {item.path === current ? (
                          <AppLink
                            to={item.path}
                            aria-current="page"
                            className="bg-blue-50 font-medium text-blue-800"
                            translate={item.named ? 'no' : undefined}
                          >
                            {item.named ? item.label : t(item.label)}
                          </AppLink>
                        ) : (
                          <AppLink to={item.path} translate={item.named ? 'no' : undefined}>
                            {item.named ? item.label : t(item.label)}
                          </AppLink>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              ))}
            </nav>
          </>
        ) : null}

        <div className="flex min-w-0 flex-1 flex-col">
          <nav aria-label={t('Breadcrumb')} className="px-6 pt-4 text-sm text-slate-500">
            <ol className="flex items-center gap-2">
              <li>
                <AppLink to="/" aria-label={t('Home')} className="hover:text-slate-700">
                  <HomeIcon className="h-4 w-4" />
                </AppLink>
              </li>
              {crumb.group ? (
                <>
                  <li aria-hidden="true">/</li>
                  <li>{t(crumb.group)}</li>
                </>
              ) : null}
              <li aria-hidden="true">/</li>
              <li aria-current="page" className="font-medium text-slate-700">
                {t(crumb.page)}
              </li>
            </ol>
          </nav>
          <main className="flex-1 px-6 py-4">
            <InsideShell.Provider value>{children}</InsideShell.Provider>
          </main>
          <footer className="app-footer">
            <span>
              {t('© {year} Group Finance Hub. Internal use only.', { year: String(new Date().getFullYear()) })}
            </span>
            <span className="ml-auto flex gap-4" translate="no">
              <a href="https://remix.run/docs" target="_blank" rel="noreferrer" className="hover:text-slate-700">
                Remix
              </a>
              <a href="https://kysely.dev/docs/intro" target="_blank" rel="noreferrer" className="hover:text-slate-700">
                Kysely
              </a>
              <a
                href="https://www.postgresql.org/docs/"
                target="_blank"
                rel="noreferrer"
                className="hover:text-slate-700"
              >
                PostgreSQL
              </a>
            </span>
          </footer>
        </div>
      </div>
    </div>
  );
}
