// Summarises the app server's V8 CPU profile from `bench/list-page.ts --cpu-prof`: self time
// per function, and self time per package/area (react-dom, kysely, better-sqlite3 statements…).
//   npx node bench/cpu-profile.ts bench/results/cpu-prof-… [--top 30] [--requests N]
//                                 [--inclusive listRecords,formChoices,renderToPipeableStream]
// --requests: divide by the number of requests the server answered (ms per request).
// --inclusive: time of the samples with the named function anywhere on the stack.
// --skip-seconds: leave out the profile's first seconds (the server's start-up and warm-up).
import fs from 'node:fs';
import path from 'node:path';
import { argValue, numberArg } from './constants.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function area(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : 'native/builtin';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  if (url.includes('/build/index.js')) return 'app (build/index.js)';
  return path.basename(url);
}

const args = process.argv.slice(2);
const dir = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
const top = numberArg(args, 'top', 30);
const requests = numberArg(args, 'requests', 0);
const skipMicros = numberArg(args, 'skip-seconds', 0) * 1e6;
const inclusive = (argValue(args, 'inclusive') ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
if (!dir) {
  console.error('usage: npx node bench/cpu-profile.ts <dir or .cpuprofile> [--top 30]');
  process.exit(1);
}
const files = fs.statSync(dir).isDirectory()
  ? fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(dir, f))
  : [dir];

for (const file of files) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const perNode = new Map<number, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= skipMicros) perNode.set(id, (perNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (const [id, us] of perNode) {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    const name = functionName || '(anonymous)';
    if (name === '(idle)') idle += us;
    total += us;
    const key = `${name} ${url ? `${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(build|app|db)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const a = area(url, name);
    byArea.set(a, (byArea.get(a) ?? 0) + us);
  }
  const busy = total - idle;
  const perRequest = (us: number) => (requests ? `${(us / 1000 / requests).toFixed(3).padStart(7)} ms/req ` : '');
  const row = (label: string, us: number) =>
    `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}% ${perRequest(us)} ${label}`;
  console.log(
    `${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages of busy time)`,
  );
  console.log(' by area:');
  for (const [label, us] of [...byArea]
    .filter(([l]) => l !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15))
    console.log(row(label, us));
  if (inclusive.length) {
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    console.log(' inclusive (samples with the function on the stack):');
    for (const name of inclusive) {
      let us = 0;
      for (const [id, t] of perNode) {
        for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
          if (nodes.get(at)!.callFrame.functionName === name) {
            us += t;
            break;
          }
        }
      }
      console.log(row(name, us));
    }
  }
  console.log(' by function (self time):');
  for (const [label, us] of [...byFunction]
    .filter(([l]) => !l.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(row(label, us));
}
