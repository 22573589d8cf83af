// A screen component rendered as the server renders it for a reader of one language: inside the
// i18n context with its areas' messages (pseudo-marked on request) and a static router at `url`,
// the router's hydration script left out.
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server';
import { catalogs } from '../app/features/shell/catalogs.server.ts';
import { I18nProvider } from '../app/platform/i18n/i18n-context.tsx';
import type { Locale } from '../app/platform/i18n/locales.ts';
import { DEFAULT_PREFERENCES } from '../app/platform/i18n/preferences.ts';

export async function renderScreen(
  screen: ReactElement,
  options: { url: string; locale: Locale; areas: string[]; pseudo?: boolean },
): Promise<string> {
  const element = (
    <I18nProvider
      preferences={{ ...DEFAULT_PREFERENCES, locale: options.locale }}
      messages={catalogs.forBrowser(options.locale, options.areas, options.pseudo)}
    >
      {screen}
    </I18nProvider>
  );
  const url = new URL(options.url, 'http://localhost');
  const handler = createStaticHandler([{ path: url.pathname, element }]);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`unexpected answer ${context.status}`);
  const html = renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />,
  );
  return html.replace(/<script>[\s\S]*?<\/script>/g, '');
}
