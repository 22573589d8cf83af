// The import graph of the source (tests excluded) has no cycle: neither between files nor
// between folders (app/services ↔ worker, db ↔ app/…). A cycle makes load order matter and
// lets a layer reach back into the one that uses it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const SOURCE_DIRS = ['app', 'db', 'worker', 'cli', 'scripts', 'bench'];
const SOURCE_FILES = ['server.ts'];
const IS_TEST = /\.(test|spec)\.tsx?$|\.test-d\.ts$/;

function sourceFiles(): string[] {
  const files: string[] = SOURCE_FILES.map((f) => path.join(root, f));
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !IS_TEST.test(entry.name)) files.push(full);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir));
  return files;
}

/** Relative imports and re-exports, type-only ones included, and literal dynamic imports. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s))
    .filter((target) => fs.existsSync(target) && !IS_TEST.test(target));
}

/** Tarjan's strongly connected components with more than one member (or a self-import). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** The folder a file belongs to for layering: app/<area> (app/services, app/lib, …), or the top folder. */
function folderOf(file: string): string {
  const parts = path.relative(root, file).split(path.sep);
  if (parts.length === 1) return parts[0];
  return parts[0] === 'app' && parts.length > 2 ? `app/${parts[1]}` : parts[0];
}

describe('the import graph', () => {
  const files = sourceFiles();
  const fileGraph = new Map(files.map((file) => [file, new Set(importsOf(file))]));

  it('reads the whole source', () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...fileGraph.values()].reduce((n, targets) => n + targets.size, 0)).toBeGreaterThan(300);
  });

  it('has no cycle between files', () => {
    const named = cycles(fileGraph).map((component) => component.map((f) => path.relative(root, f)));
    expect(named).toEqual([]);
  });

  it('has no cycle between folders', () => {
    const folderGraph = new Map<string, Set<string>>();
    for (const [file, targets] of fileGraph) {
      const from = folderOf(file);
      if (!folderGraph.has(from)) folderGraph.set(from, new Set());
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== from) folderGraph.get(from)!.add(to);
      }
    }
    const found = cycles(folderGraph).map((component) => {
      // Name the imports that close each cycle, so the failure says what to move.
      const inside = new Set(component);
      const edges = [...fileGraph].flatMap(([file, targets]) =>
        [...targets].filter((t) => inside.has(folderOf(file)) && inside.has(folderOf(t)) && folderOf(t) !== folderOf(file))
          .map((t) => `${path.relative(root, file)} → ${path.relative(root, t)}`));
      return { folders: component, edges };
    });
    expect(found).toEqual([]);
  });
});
