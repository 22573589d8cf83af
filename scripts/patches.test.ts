// Every dependency patch is applied to the installed package it was made for, and names what
// it gains (measured with bench/ab.ts); the packages it patches are pinned to that version.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import {
  JSON_MARKER,
  MARKER,
  PATCHES_DIR,
  REMIX_SERVER_CJS,
  ROUTER_CJS,
  SERVER_MARKER,
  STATIC_ROUTER_CJS,
  patchHunks,
  unpatchedFile,
} from './patches.ts';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

const MARKERS: [string, string[]][] = [
  [ROUTER_CJS, [MARKER, JSON_MARKER]],
  [REMIX_SERVER_CJS, [SERVER_MARKER]],
  [STATIC_ROUTER_CJS, [SERVER_MARKER]],
];

it('each patch file is for a pinned, declared dependency at the installed version, and names its gain', () => {
  const files = fs.readdirSync(PATCHES_DIR).filter((f) => f.endsWith('.patch'));
  expect(files).toHaveLength(3);
  for (const file of files) {
    const [, name, version] = /^(.+)\+([^+]+)\.patch$/.exec(file)!;
    const pkg = name.replace('+', '/');
    expect(manifest.dependencies[pkg], `${pkg} is declared with its exact version`).toBe(version);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version).toBe(
      version,
    );
    expect(fs.readFileSync(path.join(PATCHES_DIR, file), 'utf8')).toMatch(/^# Gain\b.*\d/m);
  }
  expect(manifest.scripts.postinstall).toBe('patch-package --error-on-fail --error-on-warn');
});

it('each patched file holds its patch, and taking the patch out gives the package code back', () => {
  expect([...patchHunks().keys()].sort()).toEqual(MARKERS.map(([file]) => file).sort());
  for (const [file, markers] of MARKERS) {
    const text = fs.readFileSync(file, 'utf8');
    const original = unpatchedFile(file);
    for (const marker of markers) {
      expect(text, `${file} has ${marker}`).toContain(marker);
      expect(original).not.toContain(marker);
    }
    expect(original.length).toBeLessThan(text.length);
  }
});
