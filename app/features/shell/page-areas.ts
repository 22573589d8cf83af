// Which areas' messages a page shows, so its document sends the browser those and no others
// (docs/languages.md). The shell's own (sidebar, header, tables, forms, errors) go with every page.
const PAGES: Record<string, readonly string[]> = {
  '/': ['dashboards'],
  '/editor-dashboard': ['dashboards'],
  '/login': ['auth'],
  '/login/two-factor': ['auth'],
  '/change-password': ['auth'],
  '/two-factor': ['auth'],
  '/settings': ['settings'],
  '/profile': ['settings'],
};

export function pageAreas(pathname: string): readonly string[] {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGES[normalized] ?? NONE;
}

const NONE: readonly string[] = [];

/** The shell's messages and the page's own. */
export function documentAreas(pathname: string): readonly string[] {
  return ['shell', ...pageAreas(pathname)];
}
