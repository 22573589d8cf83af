// A month of Vult's subscriber metrics: the figures as cards, the card-penetration bar and the
// 12-month chart (server-rendered SVG with its numbers as a table).
import { formatNumber, formatPercent, MONTH_NAMES } from '../../platform/lib/format.ts';
import { SeriesChart, type Series } from '../../ui/chart/series-chart.tsx';
import { Card } from '../../ui/form.tsx';
import { sameMonth, twelveMonths, type MetricsRow, type Month } from './data.ts';

type Figure = 'totalSubscribers' | 'cardHolders' | 'cardAdoptionRate' | 'retentionRate' | 'conversionRate';

const FIGURES: Record<Figure, { label: string; percent: boolean }> = {
  totalSubscribers: { label: 'Total Subscribers', percent: false },
  cardHolders: { label: 'Card Holders', percent: false },
  cardAdoptionRate: { label: 'Card Adoption Rate', percent: true },
  retentionRate: { label: 'Retention Rate', percent: true },
  conversionRate: { label: 'Conversion Rate', percent: true },
};

export function MetricFigures({ row, figures }: { row: MetricsRow; figures: readonly Figure[] }) {
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {figures.map((key) => (
        <div key={key} className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`figure-${key}`}>
          <dt className="text-sm text-slate-600">{FIGURES[key].label}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
            {FIGURES[key].percent ? formatPercent(row[key]) : formatNumber(row[key])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** How many subscribers hold a card, as a bar and as text. */
export function CardPenetration({ row }: { row: MetricsRow }) {
  const { cardHolders, totalSubscribers } = row;
  const share = totalSubscribers > 0 ? Math.min(100, Math.round((cardHolders / totalSubscribers) * 10_000) / 100) : 0;
  return (
    <Card title="Card Penetration">
      <div
        className="h-3 w-full rounded-full bg-slate-200"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={share}
        aria-valuetext={formatPercent(share)}
        aria-label="Card penetration"
      >
        <div className="h-3 rounded-full bg-blue-700" style={{ width: `${share}%` }} />
      </div>
      <p className="mt-2 text-sm text-slate-700" data-testid="card-penetration">
        {`${formatNumber(cardHolders)} out of ${formatNumber(totalSubscribers)} subscribers have cards`}
      </p>
    </Card>
  );
}

/** Total subscribers and card holders over the twelve months ending with `last`; a month without a row is a gap. */
export function SubscriberTrend({ rows, last }: { rows: MetricsRow[]; last: Month }) {
  const months = twelveMonths(last);
  const label = (m: Month) => `${MONTH_NAMES[m.month - 1].slice(0, 3)} ${m.year}`;
  const seriesOf = (name: string, key: 'totalSubscribers' | 'cardHolders'): Series => ({
    name,
    points: months.map((m) => ({ label: label(m), value: rows.find((r) => sameMonth(r, m))?.[key] ?? Number.NaN })),
  });
  return (
    <Card title="Subscriber Trend">
      <SeriesChart
        id="vult-trend"
        title={`Subscribers and card holders, ${label(months[0])} to ${label(last)}`}
        description="Vult's total subscribers and card holders per month over twelve months; months without figures are gaps."
        series={[seriesOf('Total subscribers', 'totalSubscribers'), seriesOf('Card holders', 'cardHolders')]}
        unit="subscribers"
        labelHeading="Month"
      />
    </Card>
  );
}
