// What the screens bench measures: every screen, every tab and every `GET /api` call. The
// routes come from the route manifest (test/security/manifest.ts: the built route list with each
// route's access declaration, so a new route is measured without touching the bench); each
// screen's tabs from its own HTML (links to the same path that differ only in `?tab=`); the ids
// of item calls from the data (the first row of the collection).
import { buildManifest, loadBuild, type ManifestEntry } from '../test/security/manifest.ts';
import type { Client } from './screens-client.ts';

export interface Target {
  /** The URL path measured (with its query). */
  path: string;
  kind: 'screen' | 'tab' | 'api';
  /** Median goal in ms (50; 30 for the API documentation and health/monitoring). */
  medianGoalMs: number;
  p95GoalMs: number;
  /** Pages only: the HTML size goal. */
  htmlGoalBytes: number | null;
  /** Requested without a session (the sign-in page). */
  signedOut?: boolean;
}

export interface Skipped {
  path: string;
  reason: string;
}

export const GOALS = { medianMs: 50, p95Ms: 100, fastMedianMs: 30, htmlBytes: 60 * 1024 };

/** The API documentation and health/monitoring: built once, no sampling on the request path. */
const FAST = [/^\/api-documentation/, /^\/api\/openapi\.json/, /^\/system-monitoring/, /^\/api\/system\/health/];

/** Query strings some calls need (their required parameters), filled in by `resolveIds`. */
const REQUIRED_QUERY: Record<string, string> = {
  '/api/data-versions': '?tableName={versionTable}&recordId={versionRecord}',
};

/** Extra variants worth a line of their own. */
const EXTRA: string[] = [
  // The list API as the list benchmark calls it (its server-CPU goals).
  '/api/actual-expenses?limit=10',
];

function target(path: string, kind: Target['kind'], signedOut = false): Target {
  const fast = FAST.some((re) => re.test(path));
  return {
    path,
    kind,
    medianGoalMs: fast ? GOALS.fastMedianMs : GOALS.medianMs,
    p95GoalMs: GOALS.p95Ms,
    htmlGoalBytes: kind === 'api' ? null : GOALS.htmlBytes,
    signedOut,
  };
}

const isDownload = (e: ManifestEntry) => /export|settings-report|csv/.test(e.routeId);

/** The GET routes of the built app: screens and API calls, and what is left out and why. */
export async function manifestRoutes(): Promise<{ pages: ManifestEntry[]; apis: ManifestEntry[]; skipped: Skipped[] }> {
  const { entries, problems } = buildManifest(await loadBuild());
  if (problems.length) throw new Error(`the route manifest has problems:\n${problems.join('\n')}`);
  const gets = entries.filter((e) => e.method === 'GET');
  const skipped: Skipped[] = [];
  const pages: ManifestEntry[] = [];
  const apis: ManifestEntry[] = [];
  for (const e of gets) {
    if (e.path === '/api/*' || e.routeId === 'routes/$') skipped.push({ path: e.path, reason: 'catch-all (404)' });
    else if (e.rule.kind === 'redirect') skipped.push({ path: e.path, reason: 'redirect only' });
    else if (isDownload(e)) skipped.push({ path: e.path, reason: 'download (whole table as CSV: bench/export.ts)' });
    else (e.kind === 'api' ? apis : pages).push(e);
  }
  return { pages, apis, skipped };
}

/** Links on a page to its own path that differ only by `?tab=`. */
export function tabLinks(screenPath: string, html: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/href="([^"]+)"/g)) {
    const href = match[1].replaceAll('&amp;', '&');
    const url = new URL(href, `http://x${screenPath}`);
    if (url.pathname !== screenPath) continue;
    const keys = [...url.searchParams.keys()];
    if (keys.length === 1 && keys[0] === 'tab') found.add(`${screenPath}?tab=${url.searchParams.get('tab')}`);
  }
  return [...found].sort();
}

async function json(client: Client, path: string, cookie: string): Promise<unknown> {
  const answer = await client.request(path, { cookie, accept: 'json' });
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body.toString().slice(0, 200)}`);
  return JSON.parse(answer.body.toString());
}

const firstId = (value: unknown): number | undefined => {
  const rows = Array.isArray(value) ? value : ((value as { data?: unknown[] })?.data ?? []);
  const id = (rows[0] as { id?: number } | undefined)?.id;
  return typeof id === 'number' ? id : undefined;
};

/** Concrete paths for `:id` routes and required query strings; undefined with a reason when no row exists. */
async function resolvePath(client: Client, cookie: string, path: string): Promise<{ path?: string; reason?: string }> {
  let resolved = path;
  if (REQUIRED_QUERY[path]) {
    const entries = (await json(client, '/api/audit-logs?action=update&tableName=actual_expenses&limit=1', cookie)) as {
      tableName?: string;
      recordId?: number;
    }[];
    // An edited expense has versions; without one, the owner's own record.
    const entry = entries[0] ?? {
      tableName: 'users',
      recordId: ((await json(client, '/api/auth/me', cookie)) as { id: number }).id,
    };
    resolved += REQUIRED_QUERY[path]
      .replace('{versionTable}', entry.tableName ?? 'users')
      .replace('{versionRecord}', String(entry.recordId));
  }
  if (!resolved.includes(':id')) return { path: resolved };
  let id: number | undefined;
  if (resolved.startsWith('/api/users/:id')) id = ((await json(client, '/api/auth/me', cookie)) as { id?: number }).id;
  else if (resolved.startsWith('/api/ai/budget-analysis/:id'))
    id = firstId(await json(client, '/api/companies', cookie));
  else {
    const collection = resolved.slice(0, resolved.indexOf('/:id'));
    id = firstId(await json(client, `${collection}?limit=1`, cookie));
  }
  if (id === undefined) return { reason: 'no row to read' };
  return { path: resolved.replace(':id', String(id)) };
}

/**
 * Every target, in the order measured: screens each followed by their tabs, then the API calls.
 * Fetches each screen once (as the owner) to find its tabs.
 */
export async function listTargets(client: Client, cookie: string): Promise<{ targets: Target[]; skipped: Skipped[] }> {
  const { pages, apis, skipped } = await manifestRoutes();
  const targets: Target[] = [];
  for (const page of pages.sort((a, b) => a.path.localeCompare(b.path))) {
    const signedOut = page.path === '/login';
    targets.push(target(page.path, 'screen', signedOut));
    if (signedOut) continue;
    const answer = await client.request(page.path, { cookie });
    if (answer.status !== 200) continue;
    for (const tab of tabLinks(page.path, answer.body.toString())) targets.push(target(tab, 'tab'));
  }
  const apiPaths: string[] = [];
  for (const api of apis.sort((a, b) => a.path.localeCompare(b.path))) {
    const resolved = await resolvePath(client, cookie, api.path);
    if (resolved.path) apiPaths.push(resolved.path);
    else skipped.push({ path: api.path, reason: resolved.reason! });
  }
  for (const path of [...apiPaths, ...EXTRA]) targets.push(target(path, 'api'));
  return { targets, skipped };
}
