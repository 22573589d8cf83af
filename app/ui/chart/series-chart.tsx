// A line or grouped-bar chart drawn entirely at render time: plain SVG from d3-scale and d3-shape,
// no client script, no DOM measuring, so it shows with JavaScript off and renders the same bytes
// every time. The numbers are repeated in a table for screen readers and exact values.
import { scaleBand, scaleLinear } from 'd3-scale';
import { curveMonotoneX, line } from 'd3-shape';
import { ScrollRegion } from '../table/scroll-region.tsx';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';

type Formats = ReturnType<typeof useFormats>;

export interface SeriesPoint {
  label: string;
  value: number;
}

export interface Series {
  name: string;
  points: SeriesPoint[];
}

export interface SeriesChartProps {
  /** The <title> of the svg, the visible caption and the table caption. */
  title: string;
  /** The <desc> of the svg. */
  description: string;
  /** 1–4 series sharing the same labels, in order. A NaN value is drawn as a gap. */
  series: Series[];
  /** 'bar' draws grouped bars. */
  kind?: 'line' | 'bar';
  /** Formats dot and bar tooltips and table cells (default: the reader's number format). */
  format?: (n: number) => string;
  /** Formats the y axis ticks (default: `format`); short, since the axis has little room ($14M). */
  axisFormat?: (n: number) => string;
  /** 'half' when the chart shares its row with another (a narrower drawing, the same text size). */
  size?: 'full' | 'half';
  /** The y axis label, e.g. 'subscribers'. */
  unit?: string;
  /** The table's first column heading. */
  labelHeading?: string;
  /** Prefix of the aria ids; unique on the page. */
  id: string;
}

// The drawing's user units per layout. The SVG scales with its box, and its text with it: the
// width is about the box's at a laptop's width, so text of FONT_SIZE units shows at about that
// many pixels; below MIN_TEXT_PX the drawing stops shrinking and scrolls sideways instead.
// MIN_WIDTH (a literal class, for Tailwind) = WIDTH × MIN_TEXT_PX / FONT_SIZE, rounded up.
const FONT_SIZE = 12;
export const MIN_TEXT_PX = 11;
const SIZES = {
  full: { WIDTH: 800, HEIGHT: 300, MIN_WIDTH: 'min-w-[734px]' },
  half: { WIDTH: 440, HEIGHT: 260, MIN_WIDTH: 'min-w-[404px]' },
} as const;
// No measuring: text widths are estimated from the character count (generous for digits).
const CHAR_WIDTH = 7.7;
const MAX_LABEL_CHARS = 12;
const MIN_ROTATED_STEP = 18;

// Full class strings (Tailwind only sees literals). Hues told apart with the common colour-vision
// deficiencies; lines are also dashed differently. At least 4.5:1 on white and on the dark surfaces.
const PALETTE = [
  {
    stroke: 'stroke-sky-700 dark:stroke-sky-400',
    fill: 'fill-sky-700 dark:fill-sky-400',
    bg: 'bg-sky-700 dark:bg-sky-400',
    dash: undefined,
  },
  {
    stroke: 'stroke-amber-700 dark:stroke-amber-400',
    fill: 'fill-amber-700 dark:fill-amber-400',
    bg: 'bg-amber-700 dark:bg-amber-400',
    dash: '6 3',
  },
  {
    stroke: 'stroke-fuchsia-700 dark:stroke-fuchsia-400',
    fill: 'fill-fuchsia-700 dark:fill-fuchsia-400',
    bg: 'bg-fuchsia-700 dark:bg-fuchsia-400',
    dash: '2 3',
  },
  {
    stroke: 'stroke-emerald-700 dark:stroke-emerald-400',
    fill: 'fill-emerald-700 dark:fill-emerald-400',
    bg: 'bg-emerald-700 dark:bg-emerald-400',
    dash: '10 3 2 3',
  },
] as const;

const round = (n: number) => Math.round(n * 100) / 100;
const textWidth = (s: string) => s.length * CHAR_WIDTH;
const shorten = (s: string) => (s.length > MAX_LABEL_CHARS ? `${s.slice(0, MAX_LABEL_CHARS - 1)}…` : s);

export function SeriesChart({
  title,
  description,
  series,
  kind = 'line',
  format: givenFormat,
  axisFormat: givenAxisFormat,
  size = 'full',
  unit,
  labelHeading = 'Period',
  id,
}: SeriesChartProps) {
  const t = useT();
  const formats = useFormats();
  const format = givenFormat ?? ((n: number) => formats.number(n, { max: 3 }));
  const axisFormat = givenAxisFormat ?? format;
  const { WIDTH, HEIGHT, MIN_WIDTH } = SIZES[size];
  const labels = [...new Set(series.flatMap((s) => s.points.map((p) => p.label)))];
  // values[s][i]: series s at labels[i]; NaN where a series has no point for that label.
  const values = series.map((s) => {
    const byLabel = new Map(s.points.map((p) => [p.label, p.value]));
    return labels.map((label) => byLabel.get(label) ?? NaN);
  });
  const finite = values.flat().filter(Number.isFinite);
  if (finite.length === 0) return <p className="text-sm text-slate-500">{t('No data to chart yet.')}</p>;

  const lo = finite.reduce((a, b) => Math.min(a, b), 0);
  const hi = finite.reduce((a, b) => Math.max(a, b), 0);
  const y = scaleLinear()
    .domain([lo, hi > lo ? hi : lo + 1])
    .nice(5);
  const yTicks = y.ticks(5);

  const axisLabels = labels.map(shorten);
  const labelWidth = Math.max(...axisLabels.map(textWidth));
  const yAxisWidth = (unit ? 22 : 0) + Math.max(...yTicks.map((tick) => textWidth(axisFormat(tick)))) + 10;
  const right = 16;
  const roughStep = (WIDTH - yAxisWidth - right) / labels.length;
  const rotated = labels.length > 6 || labelWidth > roughStep - 8;
  // Rotated by 45°: the first label reaches left under the y axis, every label reaches down.
  const slant = labelWidth * Math.SQRT1_2;
  const left = Math.round(rotated ? Math.max(yAxisWidth, slant - roughStep / 2 + 6) : yAxisWidth);
  const bottom = Math.round(rotated ? 20 + slant : 26);
  const top = 12;

  const x = scaleBand<string>()
    .domain(labels)
    .range([left, WIDTH - right]);
  if (kind === 'bar') x.paddingInner(0.2).paddingOuter(0.1);
  y.range([HEIGHT - bottom, top]);
  const centre = (label: string) => (x(label) ?? 0) + x.bandwidth() / 2;
  // Thin rotated labels so neighbours do not overlap; the table and tooltips have every label.
  const every = rotated ? Math.max(1, Math.ceil(MIN_ROTATED_STEP / x.step())) : 1;
  const baseline = round(y(0));
  const plotBottom = HEIGHT - bottom;
  const tooltip = (s: number, i: number) => `${series[s].name} — ${labels[i]}: ${format(values[s][i])}`;

  const lines = () => {
    const path = line<number>()
      .defined((v) => Number.isFinite(v))
      .x((_, i) => centre(labels[i]))
      .y((v) => y(v))
      .curve(curveMonotoneX)
      .digits(2);
    return values.map((vs, si) => {
      const colour = PALETTE[si % PALETTE.length];
      // The dots take their fill from the group: one class attribute, not one per dot.
      return (
        <g key={si} className={colour.fill}>
          <path
            d={path(vs) ?? undefined}
            fill="none"
            strokeWidth={2}
            strokeLinejoin="round"
            strokeDasharray={colour.dash}
            className={colour.stroke}
          />
          {vs.map((v, i) =>
            Number.isFinite(v) ? (
              <circle key={i} cx={round(centre(labels[i]))} cy={round(y(v))} r={3.5}>
                <title>{tooltip(si, i)}</title>
              </circle>
            ) : null,
          )}
        </g>
      );
    });
  };

  const bars = () => {
    const inner = scaleBand<number>()
      .domain(series.map((_, si) => si))
      .range([0, x.bandwidth()])
      .paddingInner(0.1);
    return values.map((vs, si) => (
      <g key={si} className={PALETTE[si % PALETTE.length].fill}>
        {vs.map((v, i) =>
          Number.isFinite(v) ? (
            <rect
              key={i}
              x={round((x(labels[i]) ?? 0) + (inner(si) ?? 0))}
              y={round(Math.min(y(v), y(0)))}
              width={round(inner.bandwidth())}
              height={round(Math.abs(y(0) - y(v)))}
            >
              <title>{tooltip(si, i)}</title>
            </rect>
          ) : null,
        )}
      </g>
    ));
  };

  return (
    <figure className="text-slate-700">
      <figcaption className="mb-2 text-sm font-medium">{title}</figcaption>
      <ScrollRegion label={t('{title} (chart)', { title })}>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          width="100%"
          className={MIN_WIDTH}
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
          fontSize={FONT_SIZE}
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          <g className="stroke-slate-200" shapeRendering="crispEdges">
            {yTicks.map((tick) => (
              <line key={tick} x1={left} x2={WIDTH - right} y1={round(y(tick))} y2={round(y(tick))} />
            ))}
          </g>
          <g className="fill-slate-600">
            {yTicks.map((tick) => (
              <text key={tick} x={left - 6} y={round(y(tick))} dy="0.32em" textAnchor="end">
                {axisFormat(tick)}
              </text>
            ))}
            {unit ? (
              <text transform={`translate(12 ${round((top + HEIGHT - bottom) / 2)}) rotate(-90)`} textAnchor="middle">
                {unit}
              </text>
            ) : null}
            {labels.map((label, i) =>
              i % every === 0 ? (
                <g key={label} transform={`translate(${round(centre(label))} ${plotBottom})`}>
                  <line y2={4} className="stroke-slate-400" />
                  {rotated ? (
                    <text transform="translate(0 10) rotate(-45)" dy="0.32em" textAnchor="end">
                      {axisLabels[i]}
                    </text>
                  ) : (
                    <text y={8} dy="0.71em" textAnchor="middle">
                      {axisLabels[i]}
                    </text>
                  )}
                </g>
              ) : null,
            )}
          </g>
          <line
            x1={left}
            x2={WIDTH - right}
            y1={baseline}
            y2={baseline}
            className="stroke-slate-400"
            shapeRendering="crispEdges"
          />
          {kind === 'bar' ? bars() : lines()}
        </svg>
      </ScrollRegion>
      {series.length > 1 ? (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {series.map((s, si) => {
            const colour = PALETTE[si % PALETTE.length];
            return (
              <li key={si} className="flex items-center gap-2">
                {kind === 'bar' ? (
                  <span aria-hidden="true" className={`inline-block h-3 w-3 rounded-sm ${colour.bg}`} />
                ) : (
                  <svg aria-hidden="true" width="24" height="8" viewBox="0 0 24 8">
                    <line
                      x1={0}
                      x2={24}
                      y1={4}
                      y2={4}
                      strokeWidth={2}
                      strokeDasharray={colour.dash}
                      className={colour.stroke}
                    />
                  </svg>
                )}
                {s.name}
              </li>
            );
          })}
        </ul>
      ) : null}
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900">{t('Show the numbers')}</summary>
        <ScrollRegion label={title} className="mt-2">
          <table className="min-w-full divide-y divide-slate-200">
            <caption className="sr-only">{title}</caption>
            <thead className="text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-3 py-2">
                  {labelHeading}
                </th>
                {series.map((s, si) => (
                  <th key={si} scope="col" className="px-3 py-2 text-right">
                    {s.name}
                  </th>
                ))}
              </tr>
            </thead>
            {/* Cell styles set once on the body: a long table repeats no class per cell. */}
            <tbody
              translate="no"
              className="divide-y divide-slate-100 [&_td]:px-3 [&_td]:py-1.5 [&_td]:text-right [&_td]:tabular-nums [&_th]:px-3 [&_th]:py-1.5 [&_th]:text-left [&_th]:font-normal"
            >
              {labels.map((label, i) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  {values.map((v, si) => (
                    <td key={si}>{Number.isFinite(v[i]) ? format(v[i]) : '—'}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </details>
    </figure>
  );
}

/** A month of the books ('2026-11') as a chart label in the reader's language: 'Nov 2026'. */
export function monthPoint(formats: Formats, month: string): string {
  const parts = /^(\d{4})-(\d{2})$/.exec(month);
  return parts ? `${formats.month(Number(parts[2]), 'short')} ${parts[1]}` : month;
}

const moneyTicks = new Map<string, (n: number) => string>();

/** Axis ticks in the books' currency, abbreviated in the reader's language: $850K, $14M, $1.5B. */
export function moneyTick(formats: Formats): (n: number) => string {
  // The language alone ('de') picks the same separators as the formats' locale ('de-DE').
  const { locale } = formats.preferences;
  let tick = moneyTicks.get(locale);
  if (!tick) {
    const short = new Intl.NumberFormat(locale, {
      style: 'currency',
      // The books' one currency (BOOKS_CURRENCY, docs/languages.md).
      currency: 'USD',
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    tick = (n: number) => short.format(n);
    moneyTicks.set(locale, tick);
  }
  return tick;
}

/** A chart of US-dollar amounts: exact in tooltips and the table, abbreviated on the axis. */
export function DollarChart(props: Omit<SeriesChartProps, 'format' | 'axisFormat' | 'unit'>) {
  const formats = useFormats();
  const t = useT();
  return (
    <SeriesChart format={(n) => formats.money(n)} axisFormat={moneyTick(formats)} unit={t('US dollars')} {...props} />
  );
}
