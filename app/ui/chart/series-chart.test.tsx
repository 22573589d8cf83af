import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  DollarChart,
  MIN_TEXT_PX,
  moneyTick,
  SeriesChart,
  type Series,
  type SeriesChartProps,
} from './series-chart.tsx';
import { formatsFor } from '../../platform/i18n/formats.ts';
import { DEFAULT_PREFERENCES } from '../../platform/i18n/preferences.ts';

const MONTHS = ['Jan 2026', 'Feb 2026', 'Mar 2026', 'Apr 2026'];
const series = (name: string, values: number[], labels = MONTHS): Series => ({
  name,
  points: values.map((value, i) => ({ label: labels[i], value })),
});
const SUBSCRIBERS = series('Subscribers', [1200, 1350, 1280, 15000]);
const CHURNED = series('Churned', [40, 55, 0, 61]);

const render = (props: Partial<SeriesChartProps> = {}) =>
  renderToStaticMarkup(
    <SeriesChart
      id="subs"
      title="Subscribers by month"
      description="Monthly subscribers, January to April 2026."
      series={[SUBSCRIBERS, CHURNED]}
      unit="subscribers"
      {...props}
    />,
  );

const count = (html: string, pattern: RegExp) => html.match(new RegExp(pattern, 'g'))?.length ?? 0;
/** The chart's own svg (the legend swatches are svgs too). */
const chartSvg = (html: string) => /<svg[^>]*role="img"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? '';

describe('SeriesChart', () => {
  it('renders an svg image named by its title and described by its desc', () => {
    const html = render();
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="subs-title"[^>]*aria-describedby="subs-desc"/);
    expect(html).toContain('<title id="subs-title">Subscribers by month</title>');
    expect(html).toContain('<desc id="subs-desc">Monthly subscribers, January to April 2026.</desc>');
    expect(html).toContain('<figcaption class="mb-2 text-sm font-medium">Subscribers by month</figcaption>');
    expect(html).toMatch(/viewBox="0 0 800 300" width="100%"/);
  });

  it('draws text that shows at 11 px or more: the drawing never shrinks below width × 11 / font size', () => {
    for (const [size, width] of [
      ['full', 800],
      ['half', 440],
    ] as const) {
      const svg = chartSvg(render({ size }));
      const viewBox = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
      expect(viewBox).toBe(width);
      const fontSize = Number(/<svg[^>]*font-size="(\d+)"/.exec(svg)?.[1]);
      const minWidth = Number(/<svg[^>]*class="[^"]*min-w-\[(\d+)px\]/.exec(svg)?.[1]);
      expect((fontSize * minWidth) / viewBox).toBeGreaterThanOrEqual(MIN_TEXT_PX);
      // Not more than a pixel wider than needed, so the chart fits where it is used.
      expect((fontSize * (minWidth - 1)) / viewBox).toBeLessThan(MIN_TEXT_PX);
    }
  });

  it('abbreviates US-dollar axis ticks and keeps the exact amounts in tooltips and the table', () => {
    expect([0, 850_000, 14_000_000, 1_500_000_000, 2_500].map(moneyTick(formatsFor(DEFAULT_PREFERENCES)))).toEqual([
      '$0',
      '$850K',
      '$14M',
      '$1.5B',
      '$2.5K',
    ]);
    const html = renderToStaticMarkup(
      <DollarChart
        id="money"
        title="Budget"
        description="Budget by month."
        series={[series('Budget', [14_000_000, 12_500_000, 0, 9_850_000.5])]}
      />,
    );
    const ticks = [...chartSvg(html).matchAll(/<text[^>]*text-anchor="end"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(['$0', '$2M', '$4M', '$6M', '$8M', '$10M', '$12M', '$14M']);
    expect(html).toContain('<title>Budget — Jan 2026: $14,000,000.00</title>');
    expect(html).toContain('>$9,850,000.50</td>');
  });

  it('draws one path per line series and one titled dot per point', () => {
    const svg = chartSvg(render());
    expect(count(svg, /<path /)).toBe(2);
    expect(count(svg, /<circle /)).toBe(8);
    expect(svg).toContain('<title>Subscribers — Feb 2026: 1,350</title>');
    expect(svg).toContain('<title>Churned — Mar 2026: 0</title>');
    expect(svg).toContain('class="stroke-sky-700 dark:stroke-sky-400"');
  });

  it('labels the axes with nice ticks from 0, every x label and the unit', () => {
    const svg = chartSvg(render());
    const ticks = [...svg.matchAll(/<text[^>]*text-anchor="end"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(['0', '5,000', '10,000', '15,000', '20,000']);
    for (const month of MONTHS) expect(svg).toContain(`>${month}</text>`);
    expect(svg).toContain('>subscribers</text>');
  });

  it('rotates the x labels when there are more than six', () => {
    const labels = Array.from({ length: 12 }, (_, i) => `M${i + 1}`);
    const svg = chartSvg(
      render({
        series: [
          series(
            'A',
            labels.map((_, i) => i * 10),
            labels,
          ),
        ],
      }),
    );
    expect(count(svg, /rotate\(-45\)/)).toBe(12);
    for (const label of labels) expect(svg).toContain(`>${label}</text>`);
  });

  it('lists every value, formatted, in an accessible table', () => {
    const html = render({ format: (n) => `${n.toLocaleString('en-US')} subs` });
    expect(html).toContain('<summary');
    expect(html).toContain('Show the numbers</summary>');
    const table = /<table[\s\S]*<\/table>/.exec(html)?.[0] ?? '';
    expect(table).toContain('Subscribers by month</caption>');
    expect(table).toMatch(
      /<th scope="col"[^>]*>Period<\/th><th scope="col"[^>]*>Subscribers<\/th><th scope="col"[^>]*>Churned<\/th>/,
    );
    expect(count(table, /<th scope="row"/)).toBe(4);
    for (const s of [SUBSCRIBERS, CHURNED]) {
      for (const p of s.points) expect(table).toContain(`>${p.value.toLocaleString('en-US')} subs</td>`);
    }
  });

  it('shows a legend only for more than one series', () => {
    expect(render()).toMatch(/<ul[\s\S]*Subscribers<\/li>[\s\S]*Churned<\/li><\/ul>/);
    expect(render({ series: [SUBSCRIBERS] })).not.toContain('<ul');
  });

  it('renders grouped bars, one rect per value', () => {
    const svg = chartSvg(render({ kind: 'bar' }));
    expect(count(svg, /<rect /)).toBe(8);
    expect(count(svg, /<path /)).toBe(0);
    expect(svg).toContain('<title>Churned — Apr 2026: 61</title>');
  });

  it('says there is nothing to chart instead of inventing numbers', () => {
    const empty = '<p class="text-sm text-slate-500">No data to chart yet.</p>';
    expect(render({ series: [] })).toBe(empty);
    expect(
      render({
        series: [
          { name: 'A', points: [] },
          { name: 'B', points: [] },
        ],
      }),
    ).toBe(empty);
  });

  it('charts all-zero data on a 0–1 axis', () => {
    const svg = chartSvg(render({ series: [series('A', [0, 0, 0, 0])] }));
    const ticks = [...svg.matchAll(/<text[^>]*text-anchor="end"[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(ticks[0]).toBe('0');
    expect(ticks.at(-1)).toBe('1');
    expect(svg).not.toContain('NaN');
  });

  it('renders the same markup every time', () => {
    expect(render()).toBe(render());
    expect(render({ kind: 'bar' })).toBe(render({ kind: 'bar' }));
  });
});
