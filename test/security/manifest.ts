// The route manifest: every screen route (GET, and POST per form intent) and every /api route ×
// method, with who may call it, whether company scope applies and which ids it takes. Nothing
// here is written by hand: it is read from the built Remix route list (which routes exist and
// whether they have a loader or an action), each route module's `access` export
// (app/platform/screen/route-access.ts) and the route table (SCREENS). `manifestProblems` lists every route
// the manifest cannot describe; the manifest test fails on any.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import {
  isIntentRules,
  METHODS,
  type AccessRule,
  type Method,
  type RouteAccess,
} from '../../app/platform/screen/route-access.ts';
import { SCREENS, type Screen } from '../../app/platform/screen/navigation.ts';

export interface ManifestEntry {
  /** 'GET /api/budgets/:id', 'POST /budget-planning [update]'. */
  name: string;
  method: Method;
  /** The path with `:id` where the route takes an id ('/api/users/:id/deactivate'). */
  path: string;
  /** /api JSON routes, or pages (screens, sign-in, downloads, redirects). */
  kind: 'api' | 'page';
  /** The rule, with a screen's resolved from the route table. */
  rule: Exclude<AccessRule, { kind: 'screen' }>;
  /** The form intent of a screen POST. */
  intent?: string;
  /** The route-table screen a page entry serves. */
  screen?: Screen;
  companyScoped: boolean;
  groupWide: boolean;
  /** Id parameters of the path ('id'); a form intent that takes an `id` field lists it too. */
  ids: string[];
  resource?: string;
  routeId: string;
}

const buildFile = path.resolve(import.meta.dirname, '../../build/index.js');

export async function loadBuild(): Promise<ServerBuild> {
  if (!fs.existsSync(buildFile)) throw new Error('build/index.js is missing: run `npm run build` first');
  return (await import(pathToFileURL(buildFile).href)) as ServerBuild;
}

type BuiltRoute = ServerBuild['routes'][string];

function fullPath(routes: ServerBuild['routes'], route: BuiltRoute): string {
  const parts: string[] = [];
  for (let r: BuiltRoute | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) {
    if (r.path) parts.unshift(r.path);
  }
  return `/${parts.join('/')}`.replace(/\/+/g, '/');
}

function screenRule(screen: Screen): ManifestEntry['rule'] {
  return { kind: 'area', area: screen.area, action: screen.action ?? 'read' };
}

/** Intents whose form names an existing row by an `id` field. */
const ID_INTENTS = new Set([
  'update',
  'delete',
  'remap',
  'permissions',
  'temporary-password',
  'deactivate',
  'activate',
]);

export interface Manifest {
  entries: ManifestEntry[];
  problems: string[];
}

export function buildManifest(build: ServerBuild): Manifest {
  const entries: ManifestEntry[] = [];
  const problems: string[] = [];
  const screensServed = new Map<string, string>();
  let catchAll: { routeId: string; access: RouteAccess } | null = null;

  for (const [routeId, route] of Object.entries(build.routes)) {
    const module = route.module as { loader?: unknown; action?: unknown; default?: unknown; access?: RouteAccess };
    const routePath = fullPath(build.routes, route);
    const isLayout = !route.path && !route.index;
    if (isLayout) {
      // root and pathless layouts (_shell) only wrap screens; they must not take posts.
      if (module.action) problems.push(`${routeId}: a layout route has an action`);
      continue;
    }
    if (!module.access) {
      problems.push(`${routeId} (${routePath}): no \`access\` export (see app/platform/screen/route-access.ts)`);
      continue;
    }
    const kind = routePath.startsWith('/api/') ? 'api' : 'page';
    for (const variant of module.access) {
      if (variant.catchAll) {
        catchAll = { routeId, access: module.access };
        continue;
      }
      let concrete = routePath;
      for (const [param, value] of Object.entries(variant.params ?? {})) {
        if (!concrete.includes(`:${param}`))
          problems.push(`${routeId}: access names parameter ${param}, which ${routePath} does not have`);
        concrete = concrete.replace(`:${param}`, value);
      }
      const ids = [...concrete.matchAll(/:(\w+)/g)].map((m) => m[1]);
      for (const id of ids)
        if (id !== 'id') problems.push(`${routeId}: parameter :${id} is neither an id nor expanded by access params`);
      for (const [method, declared] of Object.entries(variant.methods) as [
        Method,
        AccessRule | { intents: Record<string, AccessRule> },
      ][]) {
        if (!METHODS.includes(method)) problems.push(`${routeId}: unknown method ${method}`);
        if (kind === 'page' && method === 'GET' && !module.loader)
          problems.push(`${routeId}: access declares GET but the route has no loader`);
        if (kind === 'page' && method !== 'GET' && !module.action)
          problems.push(`${routeId}: access declares ${method} but the route has no action`);
        const base = {
          method,
          path: concrete,
          kind,
          companyScoped: variant.companyScoped ?? false,
          groupWide: variant.groupWide ?? false,
          resource: variant.resource,
          routeId,
        } as const;
        if (isIntentRules(declared)) {
          for (const [intent, rule] of Object.entries(declared.intents)) {
            if (rule.kind === 'screen')
              problems.push(`${routeId}: intent ${intent} must name its permission, not the screen's`);
            else
              entries.push({
                ...base,
                name: `${method} ${concrete} [${intent}]`,
                rule,
                intent,
                ids: ID_INTENTS.has(intent) ? ['id'] : [],
                screen: SCREENS.find((s) => s.path === concrete),
              });
          }
          continue;
        }
        let rule = declared;
        let screen: Screen | undefined;
        if (kind === 'page' && method === 'GET' && SCREENS.some((s) => s.path === concrete))
          screensServed.set(concrete, routeId);
        if (declared.kind === 'screen') {
          screen = SCREENS.find((s) => s.path === concrete);
          if (!screen) {
            problems.push(`${routeId}: ${concrete} uses the route table's rule but is not in SCREENS`);
            continue;
          }
          screensServed.set(screen.path, routeId);
          rule = screenRule(screen);
        }
        entries.push({ ...base, name: `${method} ${concrete}`, rule: rule as ManifestEntry['rule'], ids, screen });
      }
    }
    if (kind === 'page') {
      const declares = (m: Method) => module.access!.some((v) => v.methods[m] !== undefined);
      if (module.loader && !declares('GET')) problems.push(`${routeId}: has a loader but access declares no GET`);
      if (module.action && !METHODS.some((m) => m !== 'GET' && declares(m)))
        problems.push(`${routeId}: has an action but access declares no POST`);
    }
  }

  // The catch-all serves the route table's screens without a route file ("not available yet").
  for (const screen of SCREENS) {
    if (screensServed.has(screen.path)) continue;
    if (!catchAll) {
      problems.push(`${screen.path}: in SCREENS but no route serves it`);
      continue;
    }
    entries.push({
      name: `GET ${screen.path}`,
      method: 'GET',
      path: screen.path,
      kind: 'page',
      rule: screenRule(screen),
      screen,
      companyScoped: false,
      groupWide: false,
      ids: [],
      routeId: catchAll.routeId,
    });
  }
  // A route file for a route-table path must open it under the table's rule (the landing page
  // at "/" is public: visitors get the landing, signed-in users the dashboard).
  for (const route of Object.values(build.routes)) {
    if (!route.path && !route.index) continue;
    const p = fullPath(build.routes, route);
    const access = (route.module as { access?: RouteAccess }).access;
    const get = access?.find((v) => v.methods.GET)?.methods.GET;
    const ruled = get && !isIntentRules(get) && (get.kind === 'screen' || get.kind === 'public');
    if (SCREENS.some((s) => s.path === p) && !ruled)
      problems.push(`${p}: a route file serves it but does not use the route table's rule`);
  }
  return { entries, problems };
}
