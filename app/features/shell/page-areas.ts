// Which areas' messages a page shows, so its document sends the browser those and no others
// (docs/languages.md). The shell's own (sidebar, header, tables, forms, errors) go with every page.
const PAGES: Record<string, readonly string[]> = {
  // The dashboard's recent activity names any table as its screen does.
  '/': ['dashboards', 'system', 'finance', 'audit', 'users', 'company-metrics', 'integrations'],
  '/editor-dashboard': ['dashboards', 'finance'],
  '/login': ['auth'],
  '/login/two-factor': ['auth'],
  '/change-password': ['auth'],
  '/two-factor': ['auth'],
  '/settings': ['settings', 'system'],
  '/profile': ['settings'],
  '/companies': ['finance'],
  '/departments': ['finance'],
  '/expense-categories': ['finance'],
  '/budget-planning': ['finance'],
  '/actual-expenses': ['finance'],
  '/revenue-projections': ['finance'],
  '/actual-revenue': ['finance'],
  '/mobile-metrics': ['company-metrics'],
  '/fintech-metrics': ['company-metrics'],
  '/one-network-data': ['company-metrics'],
  '/one-network-subscription-metrics': ['company-metrics'],
  '/vult-financial-services': ['company-metrics'],
  '/vult-subscriber-metrics': ['company-metrics'],
  '/api-integrations': ['integrations'],
  // The trail names any table's fields in their forms' words.
  '/audit-trail': ['audit', 'finance', 'company-metrics', 'integrations'],
  '/backup-recovery': ['backups'],
  '/user-management': ['users'],
  '/editor-stats': ['users'],
  '/system-monitoring': ['system'],
  '/system-settings': ['system'],
  '/ai-analytics': ['ai', 'finance'],
  '/api-documentation': ['api-docs'],
  '/notifications': ['notifications'],
  '/imports': ['imports', 'finance', 'company-metrics', 'integrations'],
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
