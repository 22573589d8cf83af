// A month of Vult's subscriber metrics: the figures as cards, the card-penetration bar and the
// 12-month chart (server-rendered SVG with its numbers as a table).
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { SeriesChart, type Series } from '../../ui/chart/series-chart.tsx';
import { Card } from '../../ui/form.tsx';
import { sameMonth, twelveMonths, type MetricsRow, type Month } from './data.ts';

type Figure = 'totalSubscribers' | 'cardHolders' | 'cardAdoptionRate' | 'retentionRate' | 'conversionRate';

const FIGURES: Record<Figure, { label: string; percent: boolean }> = {
  totalSubscribers: { label: msg('Total Subscribers'), percent: false },
  cardHolders: { label: msg('Card Holders'), percent: false },
  cardAdoptionRate: { label: msg('Card Adoption Rate'), percent: true },
  retentionRate: { label: msg('Retention Rate'), percent: true },
  conversionRate: { label: msg('Conversion Rate'), percent: true },
};

export function MetricFigures({ row, figures }: { row: MetricsRow; figures: readonly Figure[] }) {
  const f = useFormats();
  const t = useT();
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {figures.map((key) => (
        <div key={key} className="rounded-lg border border-slate-200 bg-white p-4" data-testid={`figure-${key}`}>
          <dt className="text-sm text-slate-600">{t(FIGURES[key].label)}</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
            {FIGURES[key].percent ? f.percent(row[key]) : f.number(row[key])}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** How many subscribers hold a card, as a bar and as text. */
export function CardPenetration({ row }: { row: MetricsRow }) {
  const { cardHolders, totalSubscribers } = row;
  const f = useFormats();
  const t = useT();
  const share = totalSubscribers > 0 ? Math.min(100, Math.round((cardHolders / totalSubscribers) * 10_000) / 100) : 0;
  return (
    <Card title={t('Card Penetration')}>
      <div
        className="h-3 w-full rounded-full bg-slate-200"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={share}
        aria-valuetext={f.percent(share)}
        aria-label={t('Card penetration')}
      >
        <div className="h-3 rounded-full bg-blue-700" style={{ width: `${share}%` }} />
      </div>
      <p className="mt-2 text-sm text-slate-700" data-testid="card-penetration">
        {t('{cardHolders} out of {totalSubscribers} subscribers have cards', {
          cardHolders: f.number(cardHolders),
          totalSubscribers: f.number(totalSubscribers),
        })}
      </p>
    </Card>
  );
}

/** Total subscribers and card holders over the twelve months ending with `last`; a month without a row is a gap. */
export function SubscriberTrend({ rows, last }: { rows: MetricsRow[]; last: Month }) {
  const months = twelveMonths(last);
  const f = useFormats();
  const t = useT();
  const label = (m: Month) => `${f.month(m.month, 'short')} ${m.year}`;
  const seriesOf = (name: string, key: 'totalSubscribers' | 'cardHolders'): Series => ({
    name,
    points: months.map((m) => ({ label: label(m), value: rows.find((r) => sameMonth(r, m))?.[key] ?? Number.NaN })),
  });
  return (
    <Card title={t('Subscriber Trend')}>
      <SeriesChart
        id="vult-trend"
        title={t('Subscribers and card holders, {first} to {last}', { first: label(months[0]), last: label(last) })}
        description={t(
          'Vult’s total subscribers and card holders per month over twelve months; months without figures are gaps.',
        )}
        series={[seriesOf(t('Total subscribers'), 'totalSubscribers'), seriesOf(t('Card holders'), 'cardHolders')]}
        unit={t('subscribers')}
        labelHeading={t('Month')}
      />
    </Card>
  );
}
