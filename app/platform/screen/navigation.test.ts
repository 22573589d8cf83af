// The route table, the sidebar per role and the Company Metrics rules: the sidebar groups, and
// a sidebar that lists only the screens the user may open (docs/security.md).
import { describe, expect, it } from 'vitest';
import {
  breadcrumbFor,
  buildSidebar,
  canOpen,
  companyMetricItems,
  findScreen,
  SCREENS,
  sidebarGroups,
  sidebarLinks,
  type NavGroup,
} from './navigation.ts';
import type { Principal, Role } from '../lib/permissions.ts';

const FLAG_NAMES = [
  'canAccessFinancialData',
  'canAccessSubscriberData',
  'canAccessApiIntegrations',
  'canAccessAnalytics',
  'canAccessAuditLogs',
  'canAccessBackups',
  'canCreate',
  'canEdit',
  'canDelete',
  'canManageUsers',
] as const;

function principal(role: Role, flags: string[] = [], companyId: number | null = null): Principal {
  const user: Record<string, unknown> = { id: 1, role, companyId };
  for (const flag of FLAG_NAMES) user[flag] = flags.includes(flag);
  return user as Principal;
}

const SEEDED = [
  { name: 'One Network', type: 'mobile' },
  { name: 'Vult', type: 'fintech' },
  { name: 'Atlas Infrastructure', type: 'infrastructure' },
  { name: 'Spark Marketing', type: 'marketing' },
];

const ALL_COMPANY_METRICS = [
  { path: '/fintech-metrics', label: 'Vult', named: true },
  { path: '/one-network-data', label: 'One Network Data' },
  { path: '/one-network-subscription-metrics', label: 'One Network Subscriptions' },
  { path: '/vult-financial-services', label: 'Vult Financial Services' },
  { path: '/vult-subscriber-metrics', label: 'Vult Subscriber Metrics' },
];

const item = (path: string, label: string) => ({ path, label });
/** An entry labelled with a company's name (data, not a message). */
const named = (path: string, label: string) => ({ path, label, named: true });
const OVERVIEW = { name: 'Overview', items: [item('/', 'Dashboard')] };
const FINANCIAL = {
  name: 'Financial Data',
  items: [
    item('/budget-planning', 'Budget Planning'),
    item('/actual-expenses', 'Actual Expenses'),
    item('/revenue-projections', 'Revenue Projections'),
    item('/actual-revenue', 'Actual Revenue'),
  ],
};
const CONFIGURATION = {
  name: 'Configuration',
  items: [
    item('/companies', 'Companies'),
    item('/departments', 'Departments'),
    item('/expense-categories', 'Expense Categories'),
  ],
};
const METRICS = { name: 'Company Metrics', items: ALL_COMPANY_METRICS };
const PROFILE = { name: 'My Profile', items: [item('/profile', 'Profile')] };

const VIEWER_SIDEBAR: NavGroup[] = [
  OVERVIEW,
  FINANCIAL,
  CONFIGURATION,
  METRICS,
  { name: 'System Management', items: [item('/api-documentation', 'API Documentation')] },
  PROFILE,
];

const EDITOR_SIDEBAR: NavGroup[] = [
  { name: 'Overview', items: [item('/', 'Dashboard'), item('/editor-dashboard', 'My Dashboard')] },
  FINANCIAL,
  CONFIGURATION,
  METRICS,
  { name: 'System Management', items: [item('/api-documentation', 'API Documentation')] },
  PROFILE,
];

const ADMIN_SIDEBAR: NavGroup[] = [
  OVERVIEW,
  FINANCIAL,
  {
    name: 'Analytics & AI',
    items: [item('/ai-analytics', 'AI Insights'), item('/api-integrations', 'API Integration')],
  },
  CONFIGURATION,
  METRICS,
  {
    name: 'System Management',
    items: [
      item('/system-monitoring', 'System Monitoring'),
      item('/audit-trail', 'Audit Trail'),
      item('/backup-recovery', 'Backup & Recovery'),
      item('/api-documentation', 'API Documentation'),
      item('/editor-stats', 'Editor Stats'),
    ],
  },
  {
    name: 'Administration',
    items: [item('/user-management', 'User Management'), item('/system-settings', 'Settings')],
  },
  PROFILE,
];

describe('sidebar per role', () => {
  it('viewer', () => {
    expect(buildSidebar(principal('viewer'), SEEDED)).toEqual(VIEWER_SIDEBAR);
  });

  it('editor (with "My Dashboard")', () => {
    expect(buildSidebar(principal('editor'), SEEDED)).toEqual(EDITOR_SIDEBAR);
  });

  it('admin', () => {
    expect(buildSidebar(principal('admin'), SEEDED)).toEqual(ADMIN_SIDEBAR);
  });

  it('owner', () => {
    expect(buildSidebar(principal('owner'), SEEDED)).toEqual(ADMIN_SIDEBAR);
  });

  it("'My Dashboard' is for editors only, even when others may open it", () => {
    const paths = (user: Principal) => buildSidebar(user, SEEDED).flatMap((g) => g.items.map((i) => i.path));
    expect(paths(principal('editor'))).toContain('/editor-dashboard');
    for (const user of [principal('owner'), principal('admin'), principal('viewer', ['canCreate'])]) {
      expect(canOpen(user, findScreen('/editor-dashboard')!)).toBe(true);
      expect(paths(user)).not.toContain('/editor-dashboard');
    }
  });

  it('flags add their screens to a viewer', () => {
    const groups = (flags: string[]) =>
      Object.fromEntries(
        buildSidebar(principal('viewer', flags), SEEDED).map((g) => [g.name, g.items.map((i) => i.label)]),
      );
    expect(groups(['canAccessAnalytics'])['Analytics & AI']).toEqual(['AI Insights']);
    expect(groups(['canAccessApiIntegrations'])['Analytics & AI']).toEqual(['API Integration']);
    expect(groups(['canAccessAuditLogs'])['System Management']).toEqual(['Audit Trail', 'API Documentation']);
    expect(groups(['canAccessBackups'])['System Management']).toEqual(['Backup & Recovery', 'API Documentation']);
    // User management opens with the flag, but System Settings stays with owners and admins.
    expect(groups(['canManageUsers'])['Administration']).toEqual(['User Management']);
    // Editor Stats and System Monitoring are owner/admin only, whatever the flags.
    const everything = groups([...FLAG_NAMES]);
    expect(everything['System Management']).not.toContain('Editor Stats');
    expect(everything['System Management']).not.toContain('System Monitoring');
    expect(everything['Administration']).not.toContain('Settings');
  });

  it('company-scoped users get the metrics of their company only', () => {
    const oneNetwork = [SEEDED[0]];
    const vult = [SEEDED[1]];
    const atlas = [SEEDED[2]];
    const metrics = (companies: typeof SEEDED) =>
      buildSidebar(principal('viewer', [], 1), companies).find((g) => g.name === 'Company Metrics')?.items;
    expect(metrics(oneNetwork)).toEqual([
      item('/one-network-data', 'One Network Data'),
      item('/one-network-subscription-metrics', 'One Network Subscriptions'),
    ]);
    expect(metrics(vult)).toEqual([
      named('/fintech-metrics', 'Vult'),
      item('/vult-financial-services', 'Vult Financial Services'),
      item('/vult-subscriber-metrics', 'Vult Subscriber Metrics'),
    ]);
    // A company with no metrics screens: no empty group.
    expect(metrics(atlas)).toBeUndefined();
    expect(buildSidebar(principal('admin', [], 3), atlas).map((g) => g.name)).not.toContain('Company Metrics');
  });

  it('never lists a screen the user may not open', () => {
    for (const role of ['owner', 'admin', 'editor', 'viewer'] as Role[]) {
      for (let mask = 0; mask < 1 << FLAG_NAMES.length; mask++) {
        const user = principal(
          role,
          FLAG_NAMES.filter((_, i) => mask & (1 << i)),
        );
        for (const group of buildSidebar(user, SEEDED)) {
          expect(group.items.length).toBeGreaterThan(0);
          for (const { path } of group.items) {
            const screen = findScreen(path);
            if (!screen || !canOpen(user, screen)) throw new Error(`${role}/${mask}: ${path} listed but not allowed`);
          }
        }
      }
    }
  });
});

describe('Company Metrics derivation', () => {
  it('the seeded group: no other mobile company, so no /mobile-metrics', () => {
    expect(companyMetricItems(SEEDED)).toEqual(ALL_COMPANY_METRICS);
  });

  it('the first mobile company that is not One Network links to /mobile-metrics', () => {
    expect(
      companyMetricItems([
        { name: 'One Network', type: 'mobile' },
        { name: 'Second Mobile', type: 'mobile' },
        { name: 'Third Mobile', type: 'mobile' },
      ]),
    ).toEqual([
      named('/mobile-metrics', 'Second Mobile'),
      item('/one-network-data', 'One Network Data'),
      item('/one-network-subscription-metrics', 'One Network Subscriptions'),
    ]);
    expect(companyMetricItems([{ name: 'Only Mobile', type: 'mobile' }])).toEqual([
      named('/mobile-metrics', 'Only Mobile'),
    ]);
  });

  it('the first fintech company links to /fintech-metrics', () => {
    expect(
      companyMetricItems([
        { name: 'Pay One', type: 'fintech' },
        { name: 'Pay Two', type: 'fintech' },
      ]),
    ).toEqual([named('/fintech-metrics', 'Pay One')]);
  });

  it("'One Network' and 'Vult' are recognised by exact name, whatever their type", () => {
    expect(companyMetricItems([{ name: 'One Network', type: 'infrastructure' }])).toEqual([
      item('/one-network-data', 'One Network Data'),
      item('/one-network-subscription-metrics', 'One Network Subscriptions'),
    ]);
    expect(companyMetricItems([{ name: 'Vult', type: 'marketing' }])).toEqual([
      item('/vult-financial-services', 'Vult Financial Services'),
      item('/vult-subscriber-metrics', 'Vult Subscriber Metrics'),
    ]);
    expect(
      companyMetricItems([
        { name: 'one network', type: 'marketing' },
        { name: 'VULT', type: 'marketing' },
      ]),
    ).toEqual([]);
  });

  it('no companies, no entries', () => {
    expect(companyMetricItems([])).toEqual([]);
    expect(
      companyMetricItems([
        { name: 'Atlas', type: 'infrastructure' },
        { name: 'Spark', type: 'marketing' },
      ]),
    ).toEqual([]);
  });
});

describe('route table', () => {
  it('has every signed-in route of the product', () => {
    const routes = [
      '/',
      '/editor-dashboard',
      '/editor-stats',
      '/budget-planning',
      '/actual-expenses',
      '/revenue-projections',
      '/actual-revenue',
      '/mobile-metrics',
      '/fintech-metrics',
      '/companies',
      '/departments',
      '/expense-categories',
      '/api-documentation',
      '/user-management',
      '/audit-trail',
      '/backup-recovery',
      '/ai-analytics',
      '/api-integrations',
      '/one-network-data',
      '/one-network-subscription-metrics',
      '/vult-financial-services',
      '/vult-subscriber-metrics',
      '/profile',
      '/system-settings',
      '/system-monitoring',
      '/settings',
      '/change-password',
      '/notifications',
    ];
    for (const route of routes) expect(findScreen(route), route).toBeDefined();
    expect(new Set(SCREENS.map((s) => s.path)).size).toBe(SCREENS.length);
  });

  it('matches with or without a trailing slash, and nothing else', () => {
    expect(findScreen('/budget-planning/')?.path).toBe('/budget-planning');
    expect(findScreen('/')?.path).toBe('/');
    expect(findScreen('/budget-planning/x')).toBeUndefined();
    expect(findScreen('/Budget-Planning')).toBeUndefined();
  });

  it('gates screens by role and permission flags', () => {
    const viewer = principal('viewer');
    const editor = principal('editor');
    const open = (user: Principal, path: string) => canOpen(user, findScreen(path)!);
    for (const path of [
      '/',
      '/budget-planning',
      '/actual-revenue',
      '/companies',
      '/departments',
      '/expense-categories',
      '/mobile-metrics',
      '/one-network-data',
      '/vult-subscriber-metrics',
      '/api-documentation',
      '/profile',
      '/settings',
      '/notifications',
      '/change-password',
    ]) {
      expect(open(viewer, path), path).toBe(true);
    }
    for (const path of [
      '/editor-dashboard',
      '/ai-analytics',
      '/api-integrations',
      '/audit-trail',
      '/backup-recovery',
      '/user-management',
      '/editor-stats',
      '/system-settings',
    ]) {
      expect(open(viewer, path), path).toBe(false);
    }
    expect(open(editor, '/editor-dashboard')).toBe(true);
    expect(open(editor, '/user-management')).toBe(false);
    expect(open(principal('viewer', ['canManageUsers']), '/user-management')).toBe(true);
    expect(open(principal('viewer', ['canAccessAuditLogs']), '/audit-trail')).toBe(true);
    expect(open(principal('viewer', ['canAccessBackups']), '/backup-recovery')).toBe(true);
    expect(open(principal('viewer', ['canAccessAnalytics']), '/ai-analytics')).toBe(true);
    expect(open(principal('viewer', ['canAccessApiIntegrations']), '/api-integrations')).toBe(true);
    for (const path of ['/editor-stats', '/system-settings', '/user-management', '/audit-trail']) {
      expect(open(principal('admin'), path), path).toBe(true);
      expect(open(principal('owner'), path), path).toBe(true);
    }
  });
});

describe('sidebar links (the compact form the page carries)', () => {
  it('rebuild the same sidebar for every role and company list', () => {
    const lists = [
      SEEDED,
      [],
      [{ name: 'Atlas Infrastructure', type: 'infrastructure' }],
      [
        { name: 'Orbit', type: 'mobile' },
        { name: 'Pay', type: 'fintech' },
      ],
    ];
    for (const role of ['viewer', 'editor', 'admin', 'owner'] as const) {
      for (const companies of lists) {
        const sidebar = buildSidebar(principal(role, [...FLAG_NAMES]), companies);
        expect(sidebarGroups(sidebarLinks(sidebar)), `${role} ${companies.length}`).toEqual(sidebar);
      }
    }
  });

  it("carry a label only where it is not the screen's own", () => {
    const at = (path: string) => SCREENS.findIndex((s) => s.path === path);
    expect(sidebarLinks(ADMIN_SIDEBAR)).toContainEqual([at('/fintech-metrics'), 'Vult']);
    expect(sidebarLinks(ADMIN_SIDEBAR)).toContain(at('/system-settings'));
    expect(sidebarLinks(ADMIN_SIDEBAR)).toContain(at('/'));
  });
});

describe('breadcrumbs', () => {
  it('names the group and the page', () => {
    expect(breadcrumbFor('/')).toEqual({ group: 'Overview', page: 'Dashboard' });
    expect(breadcrumbFor('/budget-planning')).toEqual({ group: 'Financial Data', page: 'Budget Planning' });
    expect(breadcrumbFor('/audit-trail/')).toEqual({ group: 'System Management', page: 'Audit Trail' });
    expect(breadcrumbFor('/system-settings')).toEqual({ group: 'Administration', page: 'System Settings' });
    expect(breadcrumbFor('/change-password')).toEqual({ group: 'My Profile', page: 'Change Password' });
  });

  it("falls back to 'Page' for unknown paths", () => {
    expect(breadcrumbFor('/no-such-page')).toEqual({ group: null, page: 'Page' });
    expect(breadcrumbFor('/budget-planning/123')).toEqual({ group: null, page: 'Page' });
  });
});
