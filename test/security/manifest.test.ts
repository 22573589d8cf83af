// The route manifest itself: built from the code without problems, and every write route of it
// is driven by the fuzz suite (a new write route fails here until test/fuzz/targets.ts covers it).
import { beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_TARGETS } from '../fuzz/targets.ts';
import { buildManifest, loadBuild, type Manifest } from './manifest.ts';

describe('route manifest', () => {
  let manifest: Manifest;
  beforeAll(async () => {
    manifest = buildManifest(await loadBuild());
  });

  it('describes every built route: an access rule for each method, screens from the route table', () => {
    expect(manifest.problems).toEqual([]);
    const names = manifest.entries.map((e) => e.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    const count = (kind: string) => manifest.entries.filter((e) => e.kind === kind).length;
    console.log(`[manifest] ${manifest.entries.length} entries: ${count('api')} /api, ${count('page')} pages`);
  });

  it('every write route (an /api method or a screen form) is a fuzz target', () => {
    const fuzzed = new Set(FUZZ_TARGETS.map((t) => `${t.method} ${t.path}`));
    const writes = manifest.entries.filter(
      (e) => e.method !== 'GET' && e.rule.kind !== 'none' && e.rule.kind !== 'redirect',
    );
    // Signing out takes no input: nothing to fuzz.
    const missing = writes
      .filter((e) => !fuzzed.has(`${e.method} ${e.path}`) && !/\/logout$/.test(e.path))
      .map((e) => e.name);
    expect(missing).toEqual([]);
  });
});
