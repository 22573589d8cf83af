// The screens bench's table: one per database, a line per target with its figures at each size
// measured, and what misses which goal.
import type { HeavyLoopResult, IdleResult, MemoryResult, TargetResult } from './screens-measure.ts';
import { GOALS, type Target } from './screens-targets.ts';
import { sizeLabel } from './screens-data.ts';

export interface RunReport {
  dialect: 'sqlite' | 'postgres';
  rows: number;
  targets: (TargetResult & { goal: Pick<Target, 'medianGoalMs' | 'p95GoalMs' | 'htmlGoalBytes'> })[];
  memory: MemoryResult | null;
  heavy: HeavyLoopResult | null;
  idle: IdleResult | null;
}

/** Goals beyond the per-target ones. */
export const RUN_GOALS = {
  idleShareOfCore: 0.02,
  memoryGrowthBytes: 100 * 1024 * 1024,
  heavyListP99Ms: 100,
  growthRatio: 1.3,
  growthNoiseMs: 1,
};

const ms = (n: number) =>
  Number.isFinite(n) ? (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1)) : '–';
const kb = (n: number) => (Number.isFinite(n) ? `${(n / 1024).toFixed(n >= 10_240 ? 0 : 1)}` : '–');

/** What a target misses, in words ('' when it meets every goal). */
export function targetMisses(t: RunReport['targets'][number]): string[] {
  if (t.error) return [t.error];
  const misses: string[] = [];
  if (t.medianMs > t.goal.medianGoalMs) misses.push(`median ${ms(t.medianMs)} ms > ${t.goal.medianGoalMs}`);
  if (t.p95Ms > t.goal.p95GoalMs) misses.push(`p95 ${ms(t.p95Ms)} ms > ${t.goal.p95GoalMs}`);
  if (t.goal.htmlGoalBytes !== null && t.bodyBytes > t.goal.htmlGoalBytes)
    misses.push(`HTML ${kb(t.bodyBytes)} KB > ${kb(t.goal.htmlGoalBytes)}`);
  return misses;
}

function growthMiss(
  base: TargetResult | undefined,
  big: (TargetResult & { rows?: number }) | undefined,
): string | null {
  if (!base || !big || !Number.isFinite(base.medianMs) || !Number.isFinite(big.medianMs)) return null;
  const ratio = big.medianMs / base.medianMs;
  if (ratio <= RUN_GOALS.growthRatio || big.medianMs - base.medianMs <= RUN_GOALS.growthNoiseMs) return null;
  return `${ratio.toFixed(2)}× at ${sizeLabel(big.rows ?? 0)}`;
}

/**
 * Markdown table of one database: each target's figures at each size, and its misses. With two
 * sizes or more (above 0), the largest is compared with the one before it (cost must not grow
 * with the book).
 */
export function databaseTable(runs: RunReport[]): string {
  const sizes = [...runs].sort((a, b) => a.rows - b.rows);
  const first = sizes[0];
  const [small, big] = sizes.length > 1 && sizes[sizes.length - 2].rows > 0 ? sizes.slice(-2) : [undefined, undefined];
  const header = ['target'];
  for (const run of sizes) header.push(`${sizeLabel(run.rows)} median ms`, `${sizeLabel(run.rows)} p95 ms`);
  header.push('HTML KB', 'CPU ms/req', 'goal (median)');
  if (small && big) header.push(`${sizeLabel(big.rows)} ÷ ${sizeLabel(small.rows)}`);
  header.push('met?');
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  const paths = [...new Set(sizes.flatMap((run) => run.targets.map((t) => t.path)))];
  for (const path of paths) {
    const cells = [`\`${path}\``];
    const misses: string[] = [];
    const at = (run: RunReport | undefined) => run?.targets.find((x) => x.path === path);
    for (const run of sizes) {
      const r = at(run);
      cells.push(r ? ms(r.medianMs) : '–', r ? ms(r.p95Ms) : '–');
      if (r) for (const m of targetMisses(r)) misses.push(sizes.length > 1 ? `${m} (${sizeLabel(run.rows)})` : m);
    }
    // Size and CPU at the largest size measured.
    const last = at(sizes[sizes.length - 1]) ?? at(first)!;
    cells.push(
      last.kind === 'api' ? `(${kb(last.bodyBytes)})` : kb(last.bodyBytes),
      ms(last.cpuMsPerRequest),
      `${last.goal.medianGoalMs}`,
    );
    if (small && big) {
      const a = at(small);
      const b = at(big);
      const growth = growthMiss(a, b && { ...b, rows: big.rows });
      cells.push(a && b && Number.isFinite(b.medianMs / a.medianMs) ? `${(b.medianMs / a.medianMs).toFixed(2)}×` : '–');
      if (growth) misses.push(`grows ${growth}`);
    }
    cells.push(misses.length ? `**no**: ${misses.join('; ')}` : 'yes');
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The run-wide goals of one run: idle CPU, memory growth, heavy analysis beside a list. */
export function runGoals(run: RunReport): string[] {
  const lines: string[] = [];
  const tag = `${run.dialect} ${sizeLabel(run.rows)}`;
  if (run.idle) {
    const share = run.idle.shareOfCore;
    const detail = Object.entries(run.idle.perProcess)
      .map(([name, s]) => `${name} ${(s * 100).toFixed(2)} %`)
      .join(', ');
    const slices = run.idle.slices
      ? `; per 10 s: median ${(run.idle.slices.medianShare * 100).toFixed(2)} %, max ${(run.idle.slices.maxShare * 100).toFixed(1)} %`
      : '';
    lines.push(
      `- ${tag}: idle CPU over ${Math.round(run.idle.seconds)} s: **${(share * 100).toFixed(2)} % of a core** (${detail}${slices}); goal ≤ 2 % over 600 s: ${share <= RUN_GOALS.idleShareOfCore ? 'met' : '**not met**'}${run.idle.seconds < 590 ? " (shorter period than the goal's)" : ''}`,
    );
  }
  if (run.memory) {
    const m = run.memory;
    lines.push(
      `- ${tag}: web process memory ${(m.beforeBytes / 2 ** 20).toFixed(0)} MB → ${(m.afterBytes / 2 ** 20).toFixed(0)} MB after ${m.visits} visits (${m.pages} screens and tabs × ${m.visits / Math.max(1, m.pages)}): **${(m.growthBytes / 2 ** 20).toFixed(0)} MB growth**; goal ≤ 100 MB: ${m.growthBytes <= RUN_GOALS.memoryGrowthBytes ? 'met' : '**not met**'}`,
    );
  }
  if (run.heavy) {
    const h = run.heavy;
    const l = h.list;
    lines.push(
      `- ${tag}: while the owner ran \`${h.heavyPath}\` ${h.heavyRuns} times in ${h.seconds} s (median ${ms(h.heavyMedianMs)} ms, statuses ${JSON.stringify(h.heavyStatuses)}), another user's \`${h.listPath}\` at ${l.ratePerSecond}/s: p50 ${ms(l.p50)} ms, **p99 ${ms(l.p99)} ms**, max ${ms(l.max)} ms (${l.completed}/${l.sent}, ${l.non200} non-200); goal p99 ≤ 100 ms: ${l.p99 <= RUN_GOALS.heavyListP99Ms && l.non200 === 0 && l.errors === 0 ? 'met' : '**not met**'}`,
    );
  }
  return lines;
}

/** Every miss of a run, one line each (for the report to the team). */
export function missList(run: RunReport): string[] {
  const out: string[] = [];
  for (const t of run.targets) {
    const misses = targetMisses(t);
    if (misses.length) out.push(`${t.path}: ${misses.join('; ')}`);
  }
  return out;
}

export { GOALS };
