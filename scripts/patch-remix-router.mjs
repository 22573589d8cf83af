// postinstall: @remix-run/router's matchRoutes flattens and ranks the whole route tree on every
// call, and a Remix server calls it several times per request (matchServerRoutes, the static
// handler), and each branch it tries compiles its path into a RegExp again: ~0.5 ms of an API
// request's 2 ms of CPU with our ~100 route modules (bench/README.md). This caches the ranked
// branches per routes array and the compiled paths in the CommonJS build, the one Node's server
// loads, and tries only the branches whose first two path segments can be the pathname's (a
// branch /api/users cannot match /actual-expenses or /api/budgets): the first match in rank
// order is the same, found after a few tries instead of ~100. The browser bundle (the ESM build)
// is left alone: lazy route discovery adds routes to its arrays.
// Idempotent; a router whose code changed is reported, not patched (scripts/patch-remix-router.test.ts fails then).
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = patchRouter();
  if (result === 'changed') console.warn(`[postinstall] ${ROUTER_CJS} is not the code this patch knows: left as it is`);
  else if (result === 'patched') console.log('[postinstall] @remix-run/router: route branches ranked once per route tree');
}
