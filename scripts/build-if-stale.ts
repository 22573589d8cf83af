// Builds the Remix app when build/ is missing or older than anything it is built from.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'remix.config.js', 'tailwind.config.ts', 'package-lock.json', 'db', 'public/favicon.svg'];

function newest(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

export function buildIfStale(root: string): void {
  const output = path.join(root, 'build', 'index.js');
  const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
  const sources = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
  if (built > sources) return;
  console.log('[build] building the app…');
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'remix'), ['build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('remix build failed');
}
