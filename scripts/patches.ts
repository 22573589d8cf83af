// The dependency patches: patches/*.patch, applied by patch-package at every install (the
// postinstall script; a package whose version or code differs from the patch's fails the
// install). Each patch names its gain in its header. This module tells the tests where each
// patched file is, the marker each patch leaves in it, and what the file was before the patch
// (the patch's hunks taken back out), so they can compare behaviour with the original.
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
export const PATCHES_DIR = path.join(root, 'patches');
const modules = (...parts: string[]) => path.join(root, 'node_modules', ...parts);

export const ROUTER_CJS = modules('@remix-run', 'router', 'dist', 'router.cjs.js');
export const REMIX_SERVER_CJS = modules('@remix-run', 'react', 'dist', 'server.js');
export const STATIC_ROUTER_CJS = modules('react-router-dom', 'server.js');

export const MARKER = '/* finhub: ranked branches cached per routes array */';
export const SERVER_MARKER = '/* finhub: server routes kept per build */';
export const JSON_MARKER = '/* finhub: json keeps its text */';

interface Hunk {
  before: string[];
  after: string[];
}

/** The hunks of every patch file, per patched file (absolute path). */
export function patchHunks(): Map<string, Hunk[]> {
  const out = new Map<string, Hunk[]>();
  for (const name of fs
    .readdirSync(PATCHES_DIR)
    .filter((f) => f.endsWith('.patch'))
    .sort()) {
    let hunks: Hunk[] | null = null;
    let hunk: Hunk | null = null;
    for (const line of fs.readFileSync(path.join(PATCHES_DIR, name), 'utf8').split('\n')) {
      const file = /^diff --git a\/(\S+) b\//.exec(line);
      if (file) {
        hunks = [];
        hunk = null;
        out.set(path.join(root, file[1]), hunks);
      } else if (hunks && line.startsWith('@@')) {
        hunk = { before: [], after: [] };
        hunks.push(hunk);
      } else if (hunk && (line.startsWith(' ') || line === '')) {
        hunk.before.push(line.slice(1));
        hunk.after.push(line.slice(1));
      } else if (hunk && line.startsWith('-')) hunk.before.push(line.slice(1));
      else if (hunk && line.startsWith('+')) hunk.after.push(line.slice(1));
    }
  }
  return out;
}

/** A patched file's text with its patch taken back out: the package's own code. */
export function unpatchedFile(file: string): string {
  let text = fs.readFileSync(file, 'utf8');
  const hunks = patchHunks().get(file);
  if (!hunks) throw new Error(`No patch touches ${file}`);
  for (const hunk of hunks) {
    // A trailing empty context line is the patch file's final newline, not part of the hunk.
    while (
      hunk.after.length &&
      hunk.after[hunk.after.length - 1] === '' &&
      hunk.before[hunk.before.length - 1] === ''
    ) {
      hunk.after.pop();
      hunk.before.pop();
    }
    const patched = hunk.after.join('\n');
    if (text.split(patched).length !== 2)
      throw new Error(`${file}: a hunk of its patch is not found once in the installed file`);
    text = text.replace(patched, () => hunk.before.join('\n'));
  }
  return text;
}
