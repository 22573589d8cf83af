// The signed-in route table: one place for titles, sidebar groups and the permission each
// screen needs. Guards, the sidebar and breadcrumbs all read it.
import { can, type Action, type Area, type Principal } from '../lib/permissions.ts';
import { msg } from '../i18n/messages.ts';

export interface Screen {
  path: string;
  title: string;
  group: string;
  area: Area;
  action?: Action;
  /** Sidebar label when it differs from the title; false keeps it out of the sidebar. */
  sidebar?: string | false;
  /** Extra sidebar rule beyond the permission ('My Dashboard' is for editors only). */
  sidebarOnlyFor?: Principal['role'][];
}

export const SCREENS: Screen[] = [
  { path: '/', title: msg('Dashboard'), group: msg('Overview'), area: 'personal' },
  {
    path: '/editor-dashboard',
    title: msg('My Dashboard'),
    group: msg('Overview'),
    area: 'financial',
    action: 'create',
    sidebarOnlyFor: ['editor'],
  },
  { path: '/budget-planning', title: msg('Budget Planning'), group: msg('Financial Data'), area: 'financial' },
  { path: '/actual-expenses', title: msg('Actual Expenses'), group: msg('Financial Data'), area: 'financial' },
  { path: '/revenue-projections', title: msg('Revenue Projections'), group: msg('Financial Data'), area: 'financial' },
  { path: '/actual-revenue', title: msg('Actual Revenue'), group: msg('Financial Data'), area: 'financial' },
  { path: '/ai-analytics', title: msg('AI Insights'), group: msg('Analytics & AI'), area: 'analytics' },
  { path: '/api-integrations', title: msg('API Integration'), group: msg('Analytics & AI'), area: 'integrations' },
  { path: '/companies', title: msg('Companies'), group: msg('Configuration'), area: 'reference' },
  { path: '/departments', title: msg('Departments'), group: msg('Configuration'), area: 'reference' },
  { path: '/expense-categories', title: msg('Expense Categories'), group: msg('Configuration'), area: 'financial' },
  {
    path: '/mobile-metrics',
    title: msg('Mobile Metrics'),
    group: msg('Company Metrics'),
    area: 'subscriber',
    sidebar: false,
  },
  {
    path: '/fintech-metrics',
    title: msg('Fintech Metrics'),
    group: msg('Company Metrics'),
    area: 'subscriber',
    sidebar: false,
  },
  {
    path: '/one-network-data',
    title: msg('One Network Data'),
    group: msg('Company Metrics'),
    area: 'subscriber',
    sidebar: false,
  },
  {
    path: '/one-network-subscription-metrics',
    title: msg('One Network Subscriptions'),
    group: msg('Company Metrics'),
    area: 'subscriber',
    sidebar: false,
  },
  {
    path: '/vult-financial-services',
    title: msg('Vult Financial Services'),
    group: msg('Company Metrics'),
    area: 'subscriber',
    sidebar: false,
  },
  {
    path: '/vult-subscriber-metrics',
    title: msg('Vult Subscriber Metrics'),
    group: msg('Company Metrics'),
    area: 'subscriber',
    sidebar: false,
  },
  {
    path: '/system-monitoring',
    title: msg('System Monitoring'),
    group: msg('System Management'),
    area: 'installation',
  },
  { path: '/audit-trail', title: msg('Audit Trail'), group: msg('System Management'), area: 'auditLogs' },
  { path: '/backup-recovery', title: msg('Backup & Recovery'), group: msg('System Management'), area: 'backups' },
  { path: '/api-documentation', title: msg('API Documentation'), group: msg('System Management'), area: 'personal' },
  { path: '/editor-stats', title: msg('Editor Stats'), group: msg('System Management'), area: 'admin' },
  { path: '/user-management', title: msg('User Management'), group: msg('Administration'), area: 'users' },
  {
    path: '/system-settings',
    title: msg('System Settings'),
    group: msg('Administration'),
    area: 'installation',
    sidebar: msg('Settings'),
  },
  { path: '/profile', title: msg('Profile'), group: msg('My Profile'), area: 'personal' },
  { path: '/settings', title: msg('Settings'), group: msg('My Profile'), area: 'personal', sidebar: false },
  { path: '/notifications', title: msg('Notifications'), group: msg('My Profile'), area: 'personal', sidebar: false },
  {
    path: '/change-password',
    title: msg('Change Password'),
    group: msg('My Profile'),
    area: 'personal',
    sidebar: false,
  },
  // The upload, preview and outcome of a CSV import (docs/imports.md); each table's own permission decides.
  { path: '/imports', title: msg('Import Data'), group: msg('Financial Data'), area: 'personal', sidebar: false },
  {
    path: '/two-factor',
    title: msg('Two-Factor Authentication'),
    group: msg('My Profile'),
    area: 'personal',
    sidebar: false,
  },
];

export const GROUP_ORDER = [
  msg('Overview'),
  msg('Financial Data'),
  msg('Analytics & AI'),
  msg('Configuration'),
  msg('Company Metrics'),
  msg('System Management'),
  msg('Administration'),
  msg('My Profile'),
];

export function findScreen(pathname: string): Screen | undefined {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return SCREENS.find((s) => s.path === normalized);
}

/** A route-table screen's title, for its route module's document title and heading (an unknown path throws). */
export function screenTitle(path: string): string {
  const screen = findScreen(path);
  if (!screen) throw new Error(`screenTitle: ${path} is not in SCREENS`);
  return screen.title;
}

export function canOpen(user: Principal, screen: Screen): boolean {
  return can(user, screen.area, screen.action ?? 'read');
}

export interface NavItem {
  path: string;
  label: string;
  /** The label is a company's name (data, not a message). */
  named?: boolean;
}
export interface NavGroup {
  name: string;
  items: NavItem[];
}

export const NETWORK_COMPANY = 'One Network';
export const FINANCIAL_SERVICES_COMPANY = 'Vult';

/** Company Metrics entries derived from the companies the user can see. */
export function companyMetricItems(companies: { name: string; type: string }[]): NavItem[] {
  const items: NavItem[] = [];
  const mobile = companies.find((c) => c.type === 'mobile' && c.name !== NETWORK_COMPANY);
  if (mobile) items.push({ path: '/mobile-metrics', label: mobile.name, named: true });
  const fintech = companies.find((c) => c.type === 'fintech');
  if (fintech) items.push({ path: '/fintech-metrics', label: fintech.name, named: true });
  if (companies.some((c) => c.name === NETWORK_COMPANY)) {
    items.push({ path: '/one-network-data', label: msg('One Network Data') });
    items.push({ path: '/one-network-subscription-metrics', label: msg('One Network Subscriptions') });
  }
  if (companies.some((c) => c.name === FINANCIAL_SERVICES_COMPANY)) {
    items.push({ path: '/vult-financial-services', label: msg('Vult Financial Services') });
    items.push({ path: '/vult-subscriber-metrics', label: msg('Vult Subscriber Metrics') });
  }
  return items;
}

export function buildSidebar(user: Principal, companies: { name: string; type: string }[]): NavGroup[] {
  const groups = new Map<string, NavItem[]>(GROUP_ORDER.map((g) => [g, []]));
  for (const screen of SCREENS) {
    if (screen.sidebar === false || !canOpen(user, screen)) continue;
    if (screen.sidebarOnlyFor && !screen.sidebarOnlyFor.includes(user.role)) continue;
    groups.get(screen.group)!.push({ path: screen.path, label: screen.sidebar ?? screen.title });
  }
  const metrics = findScreen('/mobile-metrics')!;
  if (canOpen(user, metrics)) groups.set('Company Metrics', companyMetricItems(companies));
  return GROUP_ORDER.map((name) => ({ name, items: groups.get(name)! })).filter((g) => g.items.length > 0);
}

/**
 * The sidebar as the page's hydration data carries it: each link as its screen's place in
 * SCREENS, in order, with a label only where it is not the screen's own (a company's name);
 * sidebarGroups rebuilds the groups. Every page carries it, so it is kept this small.
 */
export type SidebarLinks = (number | [screen: number, label: string])[];

const ownLabel = (screen: Screen | undefined) => (typeof screen?.sidebar === 'string' ? screen.sidebar : screen?.title);

function screenIndex(path: string): number {
  const index = SCREENS.findIndex((s) => s.path === path);
  if (index < 0) throw new Error(`sidebarLinks: ${path} is not in SCREENS`);
  return index;
}

export function sidebarLinks(groups: NavGroup[]): SidebarLinks {
  return groups.flatMap((group) =>
    group.items.map((item): SidebarLinks[number] => {
      const index = screenIndex(item.path);
      return item.label === ownLabel(SCREENS[index]) ? index : [index, item.label];
    }),
  );
}

export function sidebarGroups(links: SidebarLinks): NavGroup[] {
  const groups = new Map<string, NavItem[]>(GROUP_ORDER.map((g) => [g, []]));
  for (const link of links) {
    const [index, label] = typeof link === 'number' ? [link, undefined] : link;
    const screen = SCREENS[index];
    if (screen)
      groups
        .get(screen.group)!
        .push(label ? { path: screen.path, label, named: true } : { path: screen.path, label: ownLabel(screen)! });
  }
  return GROUP_ORDER.map((name) => ({ name, items: groups.get(name)! })).filter((g) => g.items.length > 0);
}

export function breadcrumbFor(pathname: string): { group: string | null; page: string } {
  const screen = findScreen(pathname);
  return screen ? { group: screen.group, page: screen.title } : { group: null, page: msg('Page') };
}
