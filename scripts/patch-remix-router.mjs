// postinstall: @remix-run/router's matchRoutes flattens and ranks the whole route tree on every
// call, and a Remix server calls it several times per request (matchServerRoutes, the static
// handler), and each branch it tries compiles its path into a RegExp again: a large share of an
// API request's CPU with our ~100 route modules (bench/README.md). This caches the ranked
// branches per routes array and the compiled paths in the CommonJS build, the one Node's server
// loads, and tries only the branches whose first two path segments can be the pathname's (a
// branch /api/users cannot match /actual-expenses or /api/budgets): the first match in rank
// order is the same, found after a few tries instead of ~100. The browser bundle (the ESM build)
// is left alone: lazy route discovery adds routes to its arrays.
// Idempotent; a router whose code changed is reported, not patched (scripts/patch-remix-router.test.ts fails then).
// The same script keeps the server render's route objects per build, spares loaders a copy of
// the request, and reads loader data back from its JSON text (below).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MARKER = '/* finhub: ranked branches cached per routes array */';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROUTER_CJS = path.join(root, 'node_modules', '@remix-run', 'router', 'dist', 'router.cjs.js');

const BEFORE = `  let branches = flattenRoutes(routes);
  rankRouteBranches(branches);
  let matches = null;
  let decoded = decodePath(pathname);`;
const AFTER = `  let decoded = decodePath(pathname);
  let branches = candidateBranches(routes, decoded, allowPartial); ${MARKER}
  let matches = null;`;
// What a branch's first two path segments can be: fixed text (lower case: paths match
// case-insensitively unless a route says otherwise, and then fewer pathnames match, never more),
// "" where the path has ended, or ANY for a param, an optional segment or a splat, and for
// every segment after an optional one or a splat (it may stand at another position). A branch
// matches only pathnames with these segments, so only those are tried.
const HELPER = `${MARKER}
const RANKED_BRANCHES = new WeakMap();
const ANY_SEGMENT = Symbol("any segment");
function leadingSegmentsOf(path) {
  let segments = path.split("/").filter(s => s !== "");
  let out = [];
  let free = false;
  for (let i = 0; i < 2; i++) {
    let segment = segments[i];
    if (free) out.push(ANY_SEGMENT);
    else if (segment === undefined) out.push("");
    else if (segment.startsWith(":") || segment.includes("*") || segment.endsWith("?")) {
      out.push(ANY_SEGMENT);
      if (segment.includes("*") || segment.endsWith("?")) free = true;
    } else out.push(segment.toLowerCase());
  }
  return out;
}
function rankedBranches(routes) {
  let ranked = RANKED_BRANCHES.get(routes);
  if (!ranked) {
    let branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    ranked = { branches, leading: branches.map(b => leadingSegmentsOf(b.path)), byLeading: new Map() };
    RANKED_BRANCHES.set(routes, ranked);
  }
  return ranked;
}
function candidateBranches(routes, decoded, allowPartial) {
  let ranked = rankedBranches(routes);
  if (allowPartial) return ranked.branches;
  let segments = decoded.split("/").filter(s => s !== "");
  let first = (segments[0] || "").toLowerCase();
  let second = (segments[1] || "").toLowerCase();
  let key = first + "/" + second;
  let candidates = ranked.byLeading.get(key);
  if (!candidates) {
    candidates = ranked.branches.filter((b, i) => {
      let [a, b2] = ranked.leading[i];
      return (a === ANY_SEGMENT || a === first) && (b2 === ANY_SEGMENT || b2 === second);
    });
    if (ranked.byLeading.size < 1000) ranked.byLeading.set(key, candidates);
  }
  return candidates;
}
function matchRoutesImpl(`;

// Each branch tried compiles its path into a RegExp again (compilePath): most of what is left of
// matching. Route paths are few and fixed, so their compiled forms are kept (at most 2,000).
const COMPILE = 'function compilePath(path, caseSensitive, end) {';
const COMPILE_CACHED = `const COMPILED_PATHS = new Map();
function compilePath(path, caseSensitive, end) {
  const key = path + "\\u0000" + (caseSensitive === true) + "\\u0000" + (end !== false);
  let compiled = COMPILED_PATHS.get(key);
  if (!compiled) {
    compiled = compilePathUncached(path, caseSensitive, end);
    if (COMPILED_PATHS.size < 2000) COMPILED_PATHS.set(key, compiled);
  }
  return compiled;
}
function compilePathUncached(path, caseSensitive, end) {`;

/** The router's code before the patch (the tests' reference). */
export function unpatched(text) {
  return text.replace(AFTER, BEFORE).replace(HELPER, 'function matchRoutesImpl(').replace(COMPILE_CACHED, COMPILE);
}

export function patchRouter(file = ROUTER_CJS) {
  if (!fs.existsSync(file)) return 'missing';
  const text = fs.readFileSync(file, 'utf8');
  if (text.includes(MARKER)) return 'already';
  const once = (part) => text.split(part).length === 2;
  if (!once(BEFORE) || !once('function matchRoutesImpl(') || !once(COMPILE)) return 'changed';
  fs.writeFileSync(file, text.replace(BEFORE, AFTER).replace('function matchRoutesImpl(', HELPER).replace(COMPILE, COMPILE_CACHED));
  return 'patched';
}

// Every page render also rebuilt the whole route tree twice: <RemixServer> made the React route
// objects from the manifest (createServerRoutes, ~100 routes) and createStaticRouter converted
// them into data routes, so the route matching the render does (useRoutes) met a new array each
// time and ranked every branch again (a large share of a render, bench/README.md). Both depend
// only on the build, so they are kept: RemixServer's routes per manifest (checked against the
// same route modules, flags and mode), and the static router's data routes per routes array.
export const SERVER_MARKER = '/* finhub: server routes kept per build */';
export const REMIX_SERVER_CJS = path.join(root, 'node_modules', '@remix-run', 'react', 'dist', 'server.js');
export const STATIC_ROUTER_CJS = path.join(root, 'node_modules', 'react-router-dom', 'server.js');

const REMIX_BEFORE = `  let routes$1 = routes.createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);`;
const REMIX_AFTER = `  let routes$1 = serverRoutesOf(manifest, routeModules, context.future, context.isSpaMode); ${SERVER_MARKER}`;
const REMIX_ANCHOR = 'function RemixServer({';
const REMIX_HELPER = `${SERVER_MARKER}
const SERVER_ROUTES = new WeakMap();
function serverRoutesOf(manifest, routeModules, future, isSpaMode) {
  let kept = SERVER_ROUTES.get(manifest.routes);
  let same = kept && kept.future === future && kept.isSpaMode === isSpaMode &&
    Object.keys(routeModules).length === kept.ids.length && kept.ids.every(id => routeModules[id] === kept.routeModules[id]);
  if (!same) {
    kept = { routes: routes.createServerRoutes(manifest.routes, routeModules, future, isSpaMode), routeModules: { ...routeModules }, ids: Object.keys(routeModules), future, isSpaMode };
    SERVER_ROUTES.set(manifest.routes, kept);
  }
  return kept.routes;
}
function RemixServer({`;

const STATIC_BEFORE = `  let manifest = {};
  let dataRoutes = router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest);`;
const STATIC_AFTER = `  let { manifest, dataRoutes } = dataRoutesOf(routes); ${SERVER_MARKER}`;
const STATIC_ANCHOR = 'function createStaticRouter(routes, context, opts = {}) {';
const STATIC_HELPER = `${SERVER_MARKER}
const DATA_ROUTES = new WeakMap();
function dataRoutesOf(routes) {
  let kept = DATA_ROUTES.get(routes);
  if (!kept) {
    let manifest = {};
    kept = { manifest, dataRoutes: router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest) };
    DATA_ROUTES.set(routes, kept);
  }
  return kept;
}
function createStaticRouter(routes, context, opts = {}) {`;

const SERVER_PATCHES = [
  { file: REMIX_SERVER_CJS, parts: [[REMIX_BEFORE, REMIX_AFTER], [REMIX_ANCHOR, REMIX_HELPER]] },
  { file: STATIC_ROUTER_CJS, parts: [[STATIC_BEFORE, STATIC_AFTER], [STATIC_ANCHOR, STATIC_HELPER]] },
];

/** A file's code with `parts` ([before, after] pairs) taken back out (the tests' reference). */
function withoutParts(text, parts) {
  return parts.reduce((out, [before, after]) => out.replace(after, before), text);
}

/**
 * Replaces each `before` of `parts` with its `after` in `file`, once: 'already' when `marker`
 * is there, 'changed' (and nothing written) when a `before` is not there exactly once.
 */
function applyParts(file, marker, parts) {
  if (!fs.existsSync(file)) return 'missing';
  const text = fs.readFileSync(file, 'utf8');
  if (text.includes(marker)) return 'already';
  if (!parts.every(([before]) => text.split(before).length === 2)) return 'changed';
  fs.writeFileSync(file, parts.reduce((out, [before, after]) => out.replace(before, after), text));
  return 'patched';
}

/** A patched file's code before the patch (the tests' reference). */
export function unpatchedServer(text) {
  return SERVER_PATCHES.reduce((out, { parts }) => withoutParts(out, parts), text);
}

export function patchServerRoutes() {
  return SERVER_PATCHES.map(({ file, parts }) => applyParts(file, SERVER_MARKER, parts));
}

// Each loader and action of a request got a copy of the request (new URL, new Request with
// undici's Request, two per route, three routes a page) only to drop an `index` or
// `_data` parameter from its URL. A request without them now reaches the loader as it came: the
// same URL, method, headers, body and signal that the copy would carry.
export const REQUEST_MARKER = '/* finhub: no request copy without the parameter */';
export const REMIX_DATA_CJS = path.join(root, 'node_modules', '@remix-run', 'server-runtime', 'dist', 'data.js');
const DATA_PARTS = [
  ['function stripIndexParam(request) {\n  let url = new URL(request.url);\n', `function stripIndexParam(request) {\n  let url = new URL(request.url);\n  if (!url.searchParams.has("index")) return request; ${REQUEST_MARKER}\n`],
  ['function stripDataParam(request) {\n  let url = new URL(request.url);\n', `function stripDataParam(request) {\n  let url = new URL(request.url);\n  if (!url.searchParams.has("_data")) return request; ${REQUEST_MARKER}\n`],
];

/** The data module's code before the patch (the tests' reference). */
export function unpatchedData(text) {
  return withoutParts(text, DATA_PARTS);
}

export function patchRequestCopies(file = REMIX_DATA_CJS) {
  return applyParts(file, REQUEST_MARKER, DATA_PARTS);
}

// A loader's data goes through a JSON Response even on the server: Remix wraps what a loader
// returns in json() (JSON.stringify, a Response with a web stream) and the static handler reads
// it back (result.json(): encode, stream, decode, JSON.parse), a measurable share of a list page. json() now
// also keeps its text on the Response (the symbol app/http/text-body.ts uses), and the handler
// parses that text while the body is unread: the same JSON.parse of the same text, without the
// bytes and the stream. The kept text also lets the server write Remix's `?_data` answers as
// they are (app/http/remix-express.ts).
export const JSON_MARKER = '/* finhub: json keeps its text */';
const JSON_PARTS = [
  [
    `  return new Response(JSON.stringify(data), _extends({}, responseInit, {
    headers
  }));
};`,
    `  let text = JSON.stringify(data); ${JSON_MARKER}
  let response = new Response(text, _extends({}, responseInit, {
    headers
  }));
  response[Symbol.for("finhub.response.text-body")] = text;
  return response;
};`,
  ],
  [
    `          data = await result.json();`,
    `          let text = result[Symbol.for("finhub.response.text-body")]; ${JSON_MARKER}
          data = typeof text === "string" && !result.bodyUsed ? JSON.parse(text) : await result.json();`,
  ],
];

/** The router's JSON parts before the patch (the tests' reference). */
export function unpatchedJson(text) {
  return withoutParts(text, JSON_PARTS);
}

export function patchJsonText(file = ROUTER_CJS) {
  return applyParts(file, JSON_MARKER, JSON_PARTS);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = patchRouter();
  if (result === 'changed') console.warn(`[postinstall] ${ROUTER_CJS} is not the code this patch knows: left as it is`);
  else if (result === 'patched') console.log('[postinstall] @remix-run/router: route branches ranked once per route tree');
  patchServerRoutes().forEach((outcome, i) => {
    const { file } = SERVER_PATCHES[i];
    if (outcome === 'changed') console.warn(`[postinstall] ${file} is not the code this patch knows: left as it is`);
    else if (outcome === 'patched') console.log(`[postinstall] ${path.relative(root, file)}: server routes kept per build`);
  });  const copies = patchRequestCopies();
  if (copies === 'changed') console.warn(`[postinstall] ${REMIX_DATA_CJS} is not the code this patch knows: left as it is`);
  else if (copies === 'patched') console.log('[postinstall] @remix-run/server-runtime: loaders get the request itself when there is nothing to strip');  const jsonText = patchJsonText();
  if (jsonText === 'changed') console.warn(`[postinstall] ${ROUTER_CJS} (json) is not the code this patch knows: left as it is`);
  else if (jsonText === 'patched') console.log('[postinstall] @remix-run/router: loader data read back from its JSON text');
}
