// The JavaScript each page loads: for every page route of the built app, the modules the browser
// fetches at page load (entry, root, every parent route and the route itself, with the chunks
// their static imports name in the Remix manifest), their raw and gzipped bytes (gzip -9), and
// the list pages flagged against the goal (≤ 120 KB gzipped; KB = 1,000 bytes). Chunks loaded
// later by a dynamic import() (a resource form's module and its zod checks) are not counted:
// they are not in the manifest's imports.
//
//   npx node bench/js-weight.ts [--rebuild] [--route routes/_shell.actual-expenses] [--json]
//
// Reads public/build (run `npx remix build` first, or pass --rebuild). --route lists one route's
// files, heaviest first. List pages: the routes rendering the generic list screen
// (ResourceScreen, directly or through MetricsScreen). Exits 1 when a list page is over the goal.
// See bench/README.md for the figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ASSETS_URL } from '../app/platform/http/assets.ts';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const argv = process.argv.slice(2);
/** The goal for a list page, in bytes (KB = 1,000 bytes). */
const GOAL_GZ = 120_000;

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

if (argv.includes('--rebuild')) {
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'remix'), ['build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('remix build failed');
}

const buildDir = path.join(root, 'public', 'build');
const manifestFile = fs.existsSync(buildDir)
  ? fs.readdirSync(buildDir).find((f) => /^manifest-[\w-]+\.js$/.test(f))
  : undefined;
if (!manifestFile) throw new Error('No public/build/manifest-*.js: run `npx remix build` first (or pass --rebuild)');
const manifest = JSON.parse(
  fs
    .readFileSync(path.join(buildDir, manifestFile), 'utf8')
    .replace(/^window\.__remixManifest=/, '')
    .replace(/;\s*$/, ''),
) as Manifest;

const sizes = new Map<string, { raw: number; gz: number }>();
function sizeOf(file: string): { raw: number; gz: number } {
  let size = sizes.get(file);
  if (!size) {
    const bytes = fs.readFileSync(path.join(buildDir, file.slice(ASSETS_URL.length)));
    size = { raw: bytes.length, gz: zlib.gzipSync(bytes, { level: 9 }).length };
    sizes.set(file, size);
  }
  return size;
}

/** The route's source file (app/routes/….tsx), to tell pages from resource routes. */
function sourceOf(id: string): string | null {
  for (const ext of ['.tsx', '.ts', '.jsx', '.js']) {
    const file = path.join(root, 'app', id + ext);
    if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  }
  return null;
}

function urlOf(route: ManifestRoute): string {
  const parts: string[] = [];
  for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined)
    if (r.path) parts.unshift(r.path);
  return `/${parts.join('/')}`;
}

/** The files a page load fetches: entry, then root … route, each module with its imports. */
function filesOf(route: ManifestRoute): string[] {
  const chain: ManifestRoute[] = [];
  for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined)
    chain.unshift(r);
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const r of chain) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
  return [...files];
}

const only = argValue('route');
if (only) {
  const route = manifest.routes[only];
  if (!route) throw new Error(`No route ${only} in the manifest`);
  const rows = filesOf(route)
    .map((f) => ({ file: f, ...sizeOf(f) }))
    .sort((a, b) => b.gz - a.gz);
  for (const r of rows) console.log(`${kb(r.gz).padStart(8)} gz ${kb(r.raw).padStart(9)} raw  ${r.file}`);
  const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gz: t.gz + r.gz }), { raw: 0, gz: 0 });
  console.log(
    `${kb(total.gz).padStart(8)} gz ${kb(total.raw).padStart(9)} raw  ${rows.length} modules: ${only} (${urlOf(route)})`,
  );
  process.exit(0);
}

// Pages: route modules with a component that are not a layout of other routes (root, _shell).
const parents = new Set(Object.values(manifest.routes).map((route) => route.parentId));
const pages = Object.values(manifest.routes)
  .map((route) => ({ route, source: sourceOf(route.id) }))
  .filter(({ route, source }) => !parents.has(route.id) && source !== null && /^export default\b/m.test(source))
  .map(({ route, source }) => {
    const files = filesOf(route);
    const total = files.reduce((t, f) => ({ raw: t.raw + sizeOf(f).raw, gz: t.gz + sizeOf(f).gz }), { raw: 0, gz: 0 });
    const list = /<(ResourceScreen|MetricsScreen)\b/.test(source ?? '');
    return { id: route.id, url: urlOf(route), modules: files.length, ...total, list };
  })
  .sort((a, b) => b.gz - a.gz);

if (argv.includes('--json')) {
  console.log(JSON.stringify({ manifest: manifestFile, goalGzip: GOAL_GZ, pages }, null, 2));
} else {
  console.log(`JavaScript at page load (${manifestFile}; gzip -9; goal for list pages ≤ ${kb(GOAL_GZ)} gzipped)\n`);
  console.log(
    `${'page'.padEnd(36)} ${'modules'.padStart(7)} ${'raw'.padStart(10)} ${'gzipped'.padStart(10)}  ${'list page'.padEnd(9)}  route`,
  );
  for (const p of pages) {
    const flag = p.list ? (p.gz <= GOAL_GZ ? 'ok' : 'OVER GOAL') : '';
    console.log(
      `${p.url.padEnd(36)} ${String(p.modules).padStart(7)} ${kb(p.raw).padStart(10)} ${kb(p.gz).padStart(10)}  ${flag.padEnd(9)}  ${p.id}`,
    );
  }
  const lists = pages.filter((p) => p.list);
  const over = lists.filter((p) => p.gz > GOAL_GZ);
  console.log(
    `\n${lists.length} list pages, ${over.length} over the goal; heaviest list page ${kb(Math.max(...lists.map((p) => p.gz)))} gzipped`,
  );
}
if (pages.some((p) => p.list && p.gz > GOAL_GZ)) process.exitCode = 1;

function kb(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} KB`;
}

function argValue(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
