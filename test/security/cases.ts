// How the matrix calls each manifest entry: the URL (ids filled with fresh rows of the company
// under test), a valid body or form, and the status a permitted call answers. A manifest entry
// without a case here fails the matrix: a new route must say how it is called.
import type { Kysely } from 'kysely';
import { findResource } from '../../app/features/resources.ts';
import type { Db } from '../../app/platform/context.ts';
import { currentRun, refreshExpenseAnomalies } from '../../app/features/ai/expense-anomalies.server.ts';
import type { Actor } from './actors.ts';
import type { ManifestEntry } from './manifest.ts';

export interface Fixtures {
  db: Db;
  /** The company whose rows the matrix targets (One Network), and the scoped actors' company (Vult). */
  companyA: { id: number; type: string };
  companyB: { id: number; type: string };
  departmentId: number;
  /** An expense category of each company. */
  categoryOf: Record<number, number>;
  /** An API integration source (the endpoints' sample records use it). */
  sourceId: number;
  /** A user the login entries sign in as. */
  loginUser: { email: string; password: string };
  /** Creates a row of a resource (company A unless told), as the owner would; returns its id. */
  createRow(resource: string, companyId?: number): Promise<number>;
  /** Creates a plain viewer of a company; returns its id. */
  createUser(companyId: number | null): Promise<number>;
  /** A sign-in waiting for its second factor (a user of its own), and a right code for it. */
  secondStep(): Promise<{ challenge: string; code: string }>;
  /** Stores a second factor for the user (its secret is never opened: only a reset is asked for). */
  giveTwoFactor(userId: number): Promise<void>;
  /** Makes a small completed backup (departments only), made by a user when given; returns its id. */
  createBackup(madeBy?: number | null): Promise<number>;
  /** A notification for one user (or everyone when null); returns its id. */
  createNotification(userId: number | null): Promise<number>;
  /** A checked import of the user's (its file gone); returns its id. */
  ownImport(userId: number): Promise<number>;
}

export interface Plan {
  url: string;
  /** JSON for /api entries, form fields for screen posts. */
  body?: unknown;
  /** A CSV file as the body (an import), with the query in `url`. */
  csv?: string;
  form?: Record<string, string>;
  /** The status of a permitted call. */
  success: number;
  /** The row the call targets (checked unchanged when refused). */
  target?: { table: string; id: number };
  /** The company of the target row (default company A): other companies' rows are 404 to a scoped actor. */
  targetCompany?: number;
  /** The case changes the actor (signs out, sets a password): use a fresh actor. */
  changesActor?: boolean;
}

/** A browser's push keys (RFC 8291's example: a P-256 public point and a 16-byte auth secret). */
export const SAMPLE_PUSH_KEYS = {
  p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  auth: 'BTBZMqHH6r4Tts7J_aSIgg',
};

let serial = 0;
const tag = Math.random().toString(36).slice(2, 7);
const unique = (prefix: string) => `${prefix} ${tag}-${++serial}`;

/** A valid record of each declared resource for a company (the scoped actors' own, else company A). */
export function sampleRecord(resource: string, f: Fixtures, companyId: number): Record<string, unknown> {
  const company = companyId === f.companyB.id ? f.companyB : f.companyA;
  switch (resource) {
    case 'companies':
      return { name: unique('Company'), type: 'marketing', description: 'Matrix' };
    case 'departments':
      return { name: unique('Department'), description: 'Matrix' };
    case 'expense-categories':
      return { companyId, departmentId: f.departmentId, name: unique('Category'), description: 'Matrix' };
    case 'budgets':
      return {
        departmentId: f.departmentId,
        categoryId: f.categoryOf[companyId],
        amount: 100,
        period: 'monthly',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        status: 'active',
        description: 'Matrix',
      };
    case 'actual-expenses':
      return {
        departmentId: f.departmentId,
        categoryId: f.categoryOf[companyId],
        amount: 100,
        expenseDate: '2026-03-01',
        description: 'Matrix',
        vendor: 'Vendor',
        receiptNumber: 'R-1',
      };
    case 'revenue-projections':
      return {
        companyId,
        source: 'Roaming',
        amount: 100,
        period: 'monthly',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        status: 'active',
        description: 'Matrix',
      };
    case 'actual-revenues':
      return {
        companyId,
        source: 'Roaming',
        amount: 100,
        revenueDate: '2026-03-01',
        description: 'Matrix',
        customerReference: 'C-1',
      };
    case 'subscriber-metrics':
      return company.type === 'mobile'
        ? {
            companyId,
            companyType: 'mobile',
            metricName: 'new_subscribers',
            metricValue: 10,
            period: 'monthly',
            recordDate: '2026-03-01',
          }
        : {
            companyId,
            companyType: 'fintech',
            metricName: 'new_users',
            metricValue: 10,
            period: 'monthly',
            recordDate: '2026-03-01',
          };
  }
  if (resource === 'api-integration-sources')
    return {
      name: unique('Source'),
      baseUrl: 'https://api.example.com/v1',
      authType: 'bearer',
      isActive: true,
      description: 'Matrix',
    };
  if (resource === 'api-integration-endpoints') {
    return {
      sourceId: f.sourceId,
      name: unique('Endpoint'),
      endpoint: '/items',
      method: 'GET',
      direction: 'inbound',
      targetTable: 'actual_expenses',
      syncFrequency: 'manual',
      isActive: true,
    };
  }
  const metric = companyMetricRecord(resource, companyId);
  if (metric) return metric;
  throw new Error(`no sample record for resource ${resource}`);
}

/** A month (2020–2030) no other sample of this run used, and a type to go with it: one record per month and type. */
const months = new Map<string, number>();
/** One Network's monthly records are months of these resources' rows: they count months together. */
const SAME_ROWS: Record<string, string> = {
  'network-broadband-records': 'broadband-connections',
  'network-subscription-patterns': 'mobile-subscriptions',
  'network-access-records': 'mobile-access-methods',
};

function nextMonth(resource: string) {
  const key = SAME_ROWS[resource] ?? resource;
  const n = months.get(key) ?? 0;
  months.set(key, n + 1);
  return {
    year: 2020 + (Math.floor(n / 12) % 11),
    month: (n % 12) + 1,
    pick: <T>(items: readonly T[]) => items[Math.floor(n / 132) % items.length],
  };
}

function companyMetricRecord(resource: string, companyId: number): Record<string, unknown> | null {
  const { year, month, pick } = nextMonth(resource);
  switch (resource) {
    case 'broadband-connections':
      return {
        companyId,
        year,
        month,
        connectionType: pick(['fixed_broadband', 'fixed_fiber', 'fixed_fwa_5g']),
        activeConnections: 100,
        newThisMonth: 5,
        churnThisMonth: 2,
        revenue: 1000,
      };
    case 'mobile-subscriptions':
      return {
        companyId,
        year,
        month,
        subscriptionType: pick(['daily', 'weekly', 'monthly']),
        activeSubscriptions: 10,
        newThisMonth: 1,
        churnThisMonth: 1,
      };
    case 'mobile-access-methods':
      return { companyId, year, month, accessMethod: pick(['mifi', 'sim', 'esim', 'fwa_mobile']), activeDevices: 10 };
    case 'network-broadband-records':
      return {
        year,
        month,
        fixedBroadband: 6,
        fixedBroadbandNew: 1,
        fixedBroadbandChurn: 1,
        fixedFiber: 0,
        fixedFiberNew: 0,
        fixedFiberChurn: 0,
        fixedFwa5gRouter: 4,
        fixedFwa5gRouterNew: 0,
        fixedFwa5gRouterChurn: 0,
      };
    case 'network-subscription-patterns':
      return {
        year,
        month,
        ...Object.fromEntries(
          ['daily', 'weekly', 'monthly'].flatMap((c) => [
            [`${c}Subscriptions`, 1],
            [`${c}New`, 0],
            [`${c}Churn`, 0],
          ]),
        ),
      };
    case 'network-access-records':
      return { year, month, mifiDevices: 1, simCards: 0, eSim: 0, fwaMobile: 0 };
    case 'vult-subscriber-metrics':
      return {
        companyId,
        year,
        month,
        totalSubscribers: 100,
        retentionRate: 90,
        conversionRate: 20,
        cardHolders: 50,
        cardAdoptionRate: 50,
      };
    case 'vult-subscriber-levels':
      return {
        companyId,
        year,
        month,
        level: pick(['level_0', 'level_1', 'level_2', 'in_progress']),
        subscriberCount: 10,
        percentageOfTotal: 10,
        description: 'Matrix',
      };
    case 'vult-card-types':
      return {
        companyId,
        year,
        month,
        cardType: pick(['platinum', 'gold', 'black', 'aqua', 'plastic', 'virtual']),
        cardCount: 10,
        percentageOfCards: 10,
        percentageOfUsers: 5,
        description: 'Matrix',
      };
  }
  return null;
}

/** A change to one field of a resource's row: its description, else its first count. */
export function samplePatch(resource: string): Record<string, unknown> {
  const def = findResource(resource);
  if (!def) throw new Error(`unknown resource ${resource}`);
  if (def.fields.some((f) => f.name === 'description')) return { description: unique('Changed') };
  const count = def.fields.find((f) => f.kind === 'integer' && !f.widget);
  if (count) return { [count.name]: 1000 + serial++ };
  throw new Error(`no sample change for resource ${resource}`);
}

/** The /api path of a resource's collection (its key, or the first path it declares). */
export function apiPathOf(resource: string): string {
  const def = findResource(resource);
  if (!def) throw new Error(`unknown resource ${resource}`);
  return `/api/${def.apiPaths?.[0]?.path ?? def.key}`;
}

/** A record as a browser form posts it. */
export function asForm(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, String(v)]));
}

export function tableOfResource(resource: string): string {
  const def = findResource(resource);
  if (!def) throw new Error(`unknown resource ${resource}`);
  return def.table;
}

/** The company a scoped actor's own writes go to; everybody else writes to company A. */
const ownCompany = (actor: Actor, f: Fixtures) => actor.companyId ?? f.companyA.id;

/** The screen a company-type metrics screen fixes. */
const METRIC_SCREENS: Record<string, 'mobile' | 'fintech'> = {
  '/mobile-metrics': 'mobile',
  '/fintech-metrics': 'fintech',
};
/** Screens whose rows are one company's (company A is One Network, B is Vult): their rows live there. */
const PINNED_SCREENS: Record<string, 'A' | 'B'> = {
  '/one-network-data': 'A',
  '/vult-financial-services': 'B',
  '/vult-subscriber-metrics': 'B',
};

/** A new unresolved system error to resolve. */
async function openSystemError(f: Fixtures): Promise<number> {
  const now = new Date().toISOString();
  const key = unique('matrix-error');
  const row = await f.db
    .insertInto('systemErrors')
    .values({
      errorType: 'MatrixError',
      message: key,
      endpoint: '/matrix',
      method: 'GET',
      fingerprint: key,
      firstOccurrence: now,
      lastOccurrence: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function planFor(entry: ManifestEntry, actor: Actor, f: Fixtures): Promise<Plan> {
  const own = ownCompany(actor, f);
  // Targets of id routes are rows of company A: for a company-scoped actor, another company's.
  const withId = (id: number) => entry.path.replace(':id', String(id));

  if (entry.rule.kind === 'none')
    return { url: '/api/no-such-route', success: 404, body: entry.method === 'GET' ? undefined : {} };
  if (entry.rule.kind === 'redirect')
    return { url: entry.path, success: 302, form: entry.method === 'GET' ? undefined : {} };

  if (entry.kind === 'api') {
    if (entry.resource) {
      const table = tableOfResource(entry.resource);
      if (entry.ids.length === 0) {
        // A latest-row GET (/api/vult/subscriber-metrics) needs a row of the actor's company.
        if (
          entry.method === 'GET' &&
          findResource(entry.resource)?.apiPaths?.some((p) => p.latest && `/api/${p.path}` === entry.path)
        )
          await f.createRow(entry.resource, own);
        if (entry.method === 'GET') return { url: entry.path, success: 200 };
        return { url: entry.path, body: sampleRecord(entry.resource, f, own), success: 201 };
      }
      const id = await f.createRow(entry.resource);
      if (entry.method === 'GET') return { url: withId(id), success: 200, target: { table, id } };
      if (entry.method === 'PUT')
        return { url: withId(id), body: samplePatch(entry.resource), success: 200, target: { table, id } };
      if (entry.method === 'DELETE') return { url: withId(id), success: 204, target: { table, id } };
    }
    switch (`${entry.method} ${entry.path}`) {
      // A check of a file (nothing written) where the actor may add departments; for the others
      // a JSON body, which is no CSV file: refused after the rule let the actor in.
      case 'POST /api/imports':
        // (Departments are the whole group's: an admin of one company only reads them.)
        return (actor.role === 'owner' || actor.role === 'admin') && actor.companyId === null
          ? { url: `${entry.path}?table=departments&dryRun=true`, csv: `Name\r\n${unique('Dept')}\r\n`, success: 202 }
          : { url: entry.path, body: {}, success: 400 };
      // The actor's own import (a check made for them), else nobody's: 404.
      case 'GET /api/imports/:id': {
        const id = actor.userId === null ? 987654 : await f.ownImport(actor.userId);
        return { url: withId(id), success: 200 };
      }
      case 'POST /api/auth/login':
        // Signing in ends the session the cookie held: the actor changes.
        return {
          url: entry.path,
          body: { email: f.loginUser.email, password: f.loginUser.password },
          success: 200,
          changesActor: true,
        };
      case 'POST /api/auth/logout':
        return { url: entry.path, body: {}, success: 200, changesActor: true };
      case 'POST /api/auth/two-factor':
        // A user with two-factor whose password was just accepted: the code finishes the sign-in.
        return { url: entry.path, body: await f.secondStep(), success: 200, changesActor: true };
      case 'POST /api/auth/change-password':
        return {
          url: entry.path,
          body: { currentPassword: 'Test-Password-1', newPassword: 'Another-Password-2' },
          success: 200,
          changesActor: true,
        };
      case 'GET /api/auth/me':
      case 'GET /api/auth/user':
      case 'GET /api/dashboard':
      case 'GET /api/openapi.json':
      case 'GET /api/user-settings':
      case 'GET /api/users':
      case 'GET /api/users/stats':
      case 'GET /api/users/activity/analytics':
      case 'GET /api/users/activity/statistics':
      case 'GET /api/users/activity/history':
        return { url: entry.path, success: 200 };
      case 'PUT /api/user-settings':
        return { url: entry.path, body: { theme: 'dark' }, success: 200 };
      case 'GET /api/audit-logs':
      case 'GET /api/audit-logs/anomalies':
        return { url: entry.path, success: 200 };
      case 'GET /api/data-versions':
        return { url: `${entry.path}?tableName=budgets&recordId=1`, success: 200 };
      case 'POST /api/data-versions/:id/restore': {
        const { versionId, target } = await olderVersion(f);
        return { url: withId(versionId), body: {}, success: 200, target };
      }
      case 'GET /api/backups':
        return { url: entry.path, success: 200 };
      case 'POST /api/backups':
        return { url: entry.path, body: { name: unique('Matrix backup'), tables: ['departments'] }, success: 201 };
      case 'POST /api/backups/scheduled':
        return { url: entry.path, body: {}, success: 201 };
      case 'GET /api/notifications':
      case 'GET /api/notifications/count':
      case 'GET /api/notifications/vapid-public-key':
        return { url: entry.path, success: 200 };
      case 'POST /api/notifications/mark-all-read':
      case 'POST /api/notifications/unsubscribe':
        return { url: entry.path, body: {}, success: 200 };
      case 'POST /api/notifications/subscribe':
        // A public address as an IP literal: accepted without a DNS lookup.
        return {
          url: entry.path,
          body: { endpoint: `https://1.1.1.1/push/${unique('matrix').replace(/\W/g, '')}`, keys: SAMPLE_PUSH_KEYS },
          success: 201,
        };
      case 'POST /api/notifications/test':
        // Permitted: the actor's one browser is at a loopback address the server refuses to
        // send to, so the test push answers at once (200, one failed) without any network.
        if (actor.userId !== null) {
          await f.db.deleteFrom('pushSubscriptions').where('userId', '=', actor.userId).execute();
          const now = new Date().toISOString();
          await f.db
            .insertInto('pushSubscriptions')
            .values({
              userId: actor.userId,
              endpoint: `http://127.0.0.1:9/push/${unique('matrix').replace(/\W/g, '')}`,
              p256dh: SAMPLE_PUSH_KEYS.p256dh,
              auth: SAMPLE_PUSH_KEYS.auth,
              createdAt: now,
              updatedAt: now,
            })
            .execute();
        }
        return { url: entry.path, body: {}, success: 200 };
      case 'POST /api/ai/chat':
        return {
          url: entry.path,
          body: { message: 'What are the total expenses this year?', context: {}, history: [] },
          success: 200,
        };
      case 'GET /api/api-recommendations':
      case 'GET /api/api-activity-timeline':
      case 'GET /api/api-performance-analysis':
      case 'GET /api/api-integration-sync-logs':
      case 'GET /api/api-integrations/sync-logs':
        return { url: entry.path, success: 200 };
      case 'POST /api/api-integration-credentials':
        return {
          url: entry.path,
          body: {
            sourceId: f.sourceId,
            credentialKey: 'token',
            credentialValue: 'matrix-secret',
            description: 'Matrix',
          },
          success: 201,
        };
      case 'POST /api/api-integration-sync/:id': {
        const id = await f.createRow('api-integration-endpoints');
        return { url: withId(id), body: { userId: 1 }, success: 202, target: { table: 'apiIntegrationEndpoints', id } };
      }
      case 'POST /api/ai/chat/stream':
        return { url: entry.path, body: { message: 'What are the total expenses this year?' }, success: 200 };
      case 'GET /api/ai/insights':
        return { url: entry.path, success: 200 };
      case 'POST /api/ai/predict-expenses':
        return { url: entry.path, body: { companyId: own, months: 3 }, success: 200 };
      case 'POST /api/ai/detect-anomalies':
        // Read from the stored findings: computed first (before that, a 429 says they are being computed).
        if (!(await currentRun(f.db))) await refreshExpenseAnomalies(f.db, { force: true });
        return { url: entry.path, body: { companyId: own, lookbackDays: 30 }, success: 200 };
      case 'GET /api/ai/budget-analysis/:id/2026':
        return { url: withId(f.companyA.id), success: 200, target: { table: 'companies', id: f.companyA.id } };
      case 'GET /api/editor/metrics':
      case 'GET /api/editor/activities':
      case 'GET /api/admin/editor-stats':
      case 'GET /api/admin/editor-activity-history':
        return { url: entry.path, success: 200 };
      case 'PATCH /api/editor/activities/:id': {
        // A budget row of company A and the actor's own activity about it.
        const id = await f.createRow('budgets');
        const activity = await f.db
          .insertInto('auditLogs')
          .values({
            tableName: 'budgets',
            recordId: id,
            action: 'create',
            userId: actor.userId,
            companyId: f.companyA.id,
            timestamp: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return {
          url: withId(activity.id),
          body: samplePatch('budgets'),
          success: 200,
          target: { table: 'budgets', id },
        };
      }
      case 'GET /api/system/health':
      case 'GET /api/system/errors':
      case 'GET /api/system/recovery-actions':
        return { url: entry.path, success: 200 };
      case 'POST /api/system/errors/:id/resolve': {
        const id = await openSystemError(f);
        return {
          url: withId(id),
          body: { resolution: 'Matrix: fixed' },
          success: 200,
          target: { table: 'systemErrors', id },
        };
      }
      case 'POST /api/notifications/:id/read':
      case 'POST /api/notifications/:id/dismiss':
        return { url: withId(await f.createNotification(actor.userId ?? null)), body: {}, success: 200 };
    }
    if (entry.path.startsWith('/api/export/')) return { url: entry.path, success: 200 };
    if (entry.path.startsWith('/api/backups/:id')) {
      const id = await f.createBackup();
      const target = { table: 'backups', id };
      switch (`${entry.method} ${entry.path}`) {
        case 'GET /api/backups/:id':
        case 'GET /api/backups/:id/verify':
          return { url: withId(id), success: 200, target };
        case 'DELETE /api/backups/:id': {
          // The actor's own manual backup: a holder of the backups flag deletes those.
          const own = await f.createBackup(actor.userId);
          return { url: withId(own), success: 204, target: { table: 'backups', id: own } };
        }
        case 'POST /api/backups/:id/restore':
          // Adds the backup's missing departments: none, so nothing else changes.
          return { url: withId(id), body: {}, success: 200, target };
      }
    }
    switch (`${entry.method} ${entry.path}`) {
      case 'POST /api/users':
        return {
          url: entry.path,
          body: {
            username: unique('user').replace(/\W/g, ''),
            email: `${unique('u').replace(/\W/g, '')}@example.com`,
            password: 'Created-Password-1',
            role: 'viewer',
            companyId: own,
          },
          success: 201,
        };
    }
    // User item routes: a fresh viewer of company A.
    if (entry.path.startsWith('/api/users/:id')) {
      if (entry.rule.kind === 'self' && !entry.rule.or) {
        // Only oneself: the actor's own id (PATCH /api/users/:id, the profile).
        return {
          url: withId(actor.userId ?? 1),
          body: { username: actor.username, email: actor.email, fullName: unique('Name') },
          success: 200,
        };
      }
      const id = await f.createUser(f.companyA.id);
      const target = { table: 'users', id };
      switch (`${entry.method} ${entry.path}`) {
        case 'GET /api/users/:id':
          return { url: withId(id), success: 200, target };
        case 'PUT /api/users/:id':
          return { url: withId(id), body: { username: unique('renamed').replace(/\W/g, '') }, success: 200, target };
        case 'DELETE /api/users/:id':
          return { url: withId(id), success: 204, target };
        case 'PUT /api/users/:id/permissions':
          return { url: withId(id), body: { canCreate: true }, success: 200, target };
        case 'PUT /api/users/:id/deactivate':
        case 'PUT /api/users/:id/reactivate':
          return { url: withId(id), body: {}, success: 200, target };
        case 'POST /api/users/:id/temporary-password':
          return { url: withId(id), body: {}, success: 200, target };
        case 'POST /api/users/:id/change-password':
          return { url: withId(id), body: { newPassword: 'Reset-Password-3' }, success: 200, target };
      }
    }
    throw new Error(`no matrix case for ${entry.name}`);
  }

  // Pages.
  // Without an import's id there is nothing to download.
  if (entry.path === '/imports/refused') return { url: entry.path, success: 404 };
  if (entry.path === '/imports' && entry.method === 'POST') {
    // No file, and nobody's import: refused by the form's rules or as not found, after the intent's rule.
    if (entry.intent === 'upload') return { url: entry.path, form: { intent: 'upload' }, success: 400 };
    return { url: entry.path, form: { intent: entry.intent!, id: '987654', mode: 'all' }, success: 404 };
  }
  if (entry.method === 'GET') return { url: entry.path, success: 200 };
  if (entry.path === '/logout') return { url: entry.path, form: {}, success: 302, changesActor: true };
  if (entry.path === '/login')
    return {
      url: entry.path,
      form: { intent: 'login', email: f.loginUser.email, password: f.loginUser.password },
      success: 302,
      changesActor: true,
    };
  if (entry.path === '/login/two-factor') return { url: entry.path, form: { code: '123456' }, success: 302 };
  if (entry.path === '/two-factor') {
    // Each intent gets past its rule: a setup starts; the actor has no second factor to renew or
    // turn off (409). Refusals are what the matrix checks.
    if (entry.intent === 'start') return { url: entry.path, form: { intent: 'start' }, success: 302 };
    // An empty code: refused by the form's rules (400), after the intent's rule let the actor in.
    if (entry.intent === 'confirm') return { url: entry.path, form: { intent: 'confirm', code: '' }, success: 400 };
    return {
      url: entry.path,
      form: { intent: entry.intent!, currentPassword: 'Test-Password-1', code: '123456' },
      success: 409,
    };
  }
  if (entry.path === '/system-settings' && entry.intent === 'twoFactorPolicy')
    // Saved off (the checkbox unticked): turning it on would send every owner and admin actor to /two-factor.
    return { url: entry.path, form: { intent: 'twoFactorPolicy' }, success: 302 };
  if (entry.path === '/change-password') {
    // The page itself says the password changed (200), then moves on.
    return {
      url: entry.path,
      form: {
        intent: 'change',
        currentPassword: 'Test-Password-1',
        newPassword: 'Another-Password-2',
        confirmPassword: 'Another-Password-2',
      },
      success: 200,
      changesActor: true,
    };
  }
  if (entry.path === '/profile') {
    if (entry.intent === 'password') {
      return {
        url: entry.path,
        form: {
          intent: 'password',
          currentPassword: 'Test-Password-1',
          newPassword: 'Another-Password-2',
          confirmPassword: 'Another-Password-2',
        },
        success: 302,
        changesActor: true,
      };
    }
    return {
      url: entry.path,
      form: {
        intent: 'profile',
        username: unique('me').replace(/\W/g, ''),
        email: `${unique('me').replace(/\W/g, '')}@example.com`,
      },
      success: 302,
      changesActor: true,
    };
  }
  if (entry.path === '/settings') {
    const forms: Record<string, Record<string, string>> = {
      notifications: { pushNotifications: 'on' },
      appearance: { theme: 'dark' },
      preferences: {
        language: 'en',
        timezone: 'UTC',
        dateFormat: 'MM/dd/yyyy',
        timeFormat: '12h',
        defaultCurrency: 'USD',
        refreshInterval: '30',
      },
      security: { sessionTimeout: '30' },
      'clear-cache': {},
    };
    const form = forms[entry.intent!];
    if (!form) throw new Error(`no matrix case for ${entry.name}`);
    return { url: entry.path, form: { intent: entry.intent!, ...form }, success: 302 };
  }
  if (entry.path === '/ai-analytics') {
    if (entry.intent === 'chat')
      return { url: entry.path, form: { intent: 'chat', message: 'total expenses this year' }, success: 302 };
    if (entry.intent === 'clear') return { url: entry.path, form: { intent: 'clear' }, success: 302 };
    return { url: entry.path, form: { intent: 'generate' }, success: 302 };
  }
  if (entry.path === '/notifications') {
    if (entry.intent === 'mark-all-read') return { url: entry.path, form: { intent: 'mark-all-read' }, success: 302 };
    return {
      url: entry.path,
      form: { intent: entry.intent!, id: String(await f.createNotification(actor.userId ?? null)) },
      success: 302,
    };
  }
  if (entry.path === '/audit-trail' && entry.intent === 'restore') {
    const { versionId, target } = await olderVersion(f);
    return {
      url: entry.path,
      form: { intent: 'restore', versionId: String(versionId), confirmed: '1' },
      success: 302,
      target,
    };
  }
  if (entry.path === '/backup-recovery') {
    switch (entry.intent) {
      case 'create':
        return {
          url: entry.path,
          form: { intent: 'create', name: unique('Matrix screen backup'), tables: 'departments' },
          success: 302,
        };
      case 'scheduled':
        return { url: entry.path, form: { intent: 'scheduled' }, success: 302 };
    }
    const id = await f.createBackup();
    const target = { table: 'backups', id };
    switch (entry.intent) {
      case 'verify':
        return { url: entry.path, form: { intent: 'verify', id: String(id) }, success: 302, target };
      case 'restore':
        return { url: entry.path, form: { intent: 'restore', id: String(id), confirmed: '1' }, success: 302, target };
      case 'delete': {
        const own = await f.createBackup(actor.userId);
        return {
          url: entry.path,
          form: { intent: 'delete', id: String(own), confirmed: '1' },
          success: 302,
          target: { table: 'backups', id: own },
        };
      }
    }
  }
  if (entry.path === '/user-management') {
    const newUser = {
      username: unique('screenuser').replace(/\W/g, ''),
      email: `${unique('s').replace(/\W/g, '')}@example.com`,
      role: 'viewer',
      companyId: String(own),
    };
    if (entry.intent === 'create')
      return { url: entry.path, form: { intent: 'create', ...newUser, password: 'Created-Password-1' }, success: 302 };
    const id = await f.createUser(f.companyA.id);
    const target = { table: 'users', id };
    switch (entry.intent) {
      case 'update':
        return {
          url: entry.path,
          form: { intent: 'update', id: String(id), ...newUser, companyId: String(f.companyA.id) },
          success: 302,
          target,
        };
      case 'permissions':
        return {
          url: entry.path,
          form: { intent: 'permissions', id: String(id), canCreate: 'on' },
          success: 302,
          target,
        };
      case 'temporary-password':
        return {
          url: entry.path,
          form: { intent: 'temporary-password', id: String(id), confirmed: '1' },
          success: 200,
          target,
        };
      case 'deactivate':
        return {
          url: entry.path,
          form: { intent: 'deactivate', id: String(id), confirmed: '1' },
          success: 302,
          target,
        };
      case 'activate':
        return { url: entry.path, form: { intent: entry.intent, id: String(id) }, success: 302, target };
      case 'delete':
        return { url: entry.path, form: { intent: 'delete', id: String(id), confirmed: '1' }, success: 302, target };
      case 'reset-two-factor':
        await f.giveTwoFactor(id);
        return {
          url: entry.path,
          form: { intent: 'reset-two-factor', id: String(id), confirmed: '1' },
          success: 302,
          target,
        };
    }
    throw new Error(`no matrix case for ${entry.name}`);
  }
  if (entry.path === '/system-monitoring' && entry.intent === 'resolve') {
    const id = await openSystemError(f);
    return {
      url: `${entry.path}?tab=errors&resolve=${id}`,
      form: { intent: 'resolve', id: String(id), resolution: 'Matrix: fixed' },
      success: 302,
      target: { table: 'systemErrors', id },
    };
  }
  if (entry.path === '/api-integrations' && entry.intent === 'sync') {
    const id = await f.createRow('api-integration-endpoints');
    return {
      url: `${entry.path}?tab=endpoints`,
      form: { intent: 'sync', id: String(id) },
      success: 302,
      target: { table: 'apiIntegrationEndpoints', id },
    };
  }
  if (entry.path === '/api-integrations' && entry.intent === 'credential') {
    return {
      url: `${entry.path}?tab=credentials`,
      form: {
        intent: 'credential',
        sourceId: String(f.sourceId),
        credentialKey: 'token',
        credentialValue: 'matrix-secret',
      },
      success: 302,
    };
  }
  if (entry.resource) {
    const table = tableOfResource(entry.resource);
    const metricType = METRIC_SCREENS[entry.path];
    if (entry.intent === 'create') {
      let company = own;
      if (metricType && metricType !== (own === f.companyB.id ? f.companyB.type : f.companyA.type))
        company = f.companyA.type === metricType ? f.companyA.id : f.companyB.id;
      return {
        url: entry.path,
        form: { intent: 'create', ...asForm(sampleRecord(entry.resource, f, company)) },
        success: 302,
      };
    }
    // A metrics screen shows the rows of companies of its type only.
    const pinned = PINNED_SCREENS[entry.path];
    const company = pinned
      ? pinned === 'A'
        ? f.companyA.id
        : f.companyB.id
      : metricType && f.companyA.type !== metricType
        ? f.companyB.id
        : f.companyA.id;
    const id = await f.createRow(entry.resource, company);
    const target = { table, id };
    const base = { url: entry.path, success: 302, target, targetCompany: company };
    switch (entry.intent) {
      case 'update':
        return {
          ...base,
          form: { intent: 'update', id: String(id), ...asForm(sampleRecord(entry.resource, f, company)) },
        };
      case 'delete':
        return { ...base, form: { intent: 'delete', id: String(id), confirmed: '1' } };
      case 'remap':
        return { ...base, form: { intent: 'remap', id: String(id), departmentId: String(f.departmentId) } };
    }
  }
  throw new Error(`no matrix case for ${entry.name}`);
}

/** A version to restore: version 1 of a fresh budget of company A, no longer current (the row was changed since). */
async function olderVersion(f: Fixtures): Promise<{ versionId: number; target: { table: string; id: number } }> {
  const db = f.db as unknown as Kysely<any>;
  const id = await f.createRow('budgets');
  const version = await db
    .selectFrom('dataVersions')
    .select('id')
    .where('tableName', '=', 'budgets')
    .where('recordId', '=', id)
    .where('version', '=', 1)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('budgets')
    .set({ description: unique('Edited outside') })
    .where('id', '=', id)
    .execute();
  await db.updateTable('dataVersions').set({ isActive: false }).where('id', '=', version.id).execute();
  return { versionId: version.id, target: { table: 'budgets', id } };
}

export async function rowSnapshot(db: Db, target: { table: string; id: number }): Promise<string> {
  const row = await (db as unknown as Kysely<any>)
    .selectFrom(target.table)
    .selectAll()
    .where('id', '=', target.id)
    .executeTakeFirst();
  return JSON.stringify(row ?? null);
}
