// A small line of recent values (System Monitoring's tiles), drawn at render time as plain SVG:
// no script, so it shows with JavaScript off. Its title says what it covers and the range, so
// the figures are there as text too.
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';

const WIDTH = 160;
const HEIGHT = 36;

export function Sparkline({
  values,
  label,
  unit,
  max,
}: {
  values: number[];
  label: string;
  unit: string;
  max?: number;
}) {
  const f = useFormats();
  const t = useT();
  if (values.length < 2) return <p className="mt-2 text-xs text-slate-600">{t('Not enough history yet')}</p>;
  const hi = max ?? Math.max(...values, 1);
  const x = scaleLinear()
    .domain([0, values.length - 1])
    .range([1, WIDTH - 1]);
  const y = scaleLinear()
    .domain([0, hi])
    .range([HEIGHT - 2, 2]);
  const d =
    line<number>()
      .x((_, i) => x(i))
      .y((v) => y(Math.min(v, hi)))
      .digits(1)(values) ?? undefined;
  const lo = Math.min(...values);
  const top = Math.max(...values);
  const summary = `${label}: from ${f.number(lo)}${unit} to ${f.number(top)}${unit}, latest ${f.number(values[values.length - 1])}${unit}`;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width="100%"
      height={HEIGHT}
      role="img"
      aria-label={summary}
      className="mt-2"
      preserveAspectRatio="none"
    >
      <title>{summary}</title>
      <path
        d={d}
        fill="none"
        strokeWidth={1.5}
        className="stroke-sky-700 dark:stroke-sky-400"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
}
