// The public landing page. Company cards come from the database.
import { Link } from '@remix-run/react';
import { BuildingIcon, ChartIcon, LockIcon, ShieldIcon, SparkIcon, SyncIcon } from '../../ui/icons.tsx';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import type { Formats } from '../../platform/i18n/formats.ts';
import { INTL_LOCALES } from '../../platform/i18n/locales.ts';
import { msg } from '../../platform/i18n/messages.ts';

export interface LandingStatsView {
  companies: number;
  departments: number;
  dataPoints: number;
  uptime: number | null;
}

const compacts = new Map<string, Intl.NumberFormat>();

/** A large count abbreviated in the reader's language: 12K, 12 k, 12.000. */
function compact(f: Formats, n: number): string {
  const locale = INTL_LOCALES[f.preferences.locale];
  let format = compacts.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
    compacts.set(locale, format);
  }
  return format.format(n);
}

/** The stats row from the data; uptime only once it has been measured. */
function statsRow(stats: LandingStatsView, f: Formats) {
  return [
    { value: f.number(stats.companies), label: msg('Companies') },
    { value: f.number(stats.departments), label: msg('Departments per company') },
    {
      value: stats.dataPoints < 10_000 ? f.number(stats.dataPoints) : compact(f, stats.dataPoints),
      label: msg('Data points'),
    },
    ...(stats.uptime === null ? [] : [{ value: f.percent(stats.uptime, 1), label: msg('Uptime (7 days)') }]),
  ];
}

const CAPABILITIES = [
  {
    icon: SparkIcon,
    title: msg('AI Predictive Analytics'),
    text: msg('Expense predictions, anomaly detection and budget analysis computed from your own figures.'),
  },
  {
    icon: ShieldIcon,
    title: msg('Role-Based Access & Audit Trails'),
    text: msg('Owners, admins, editors and viewers, with every change recorded and versioned.'),
  },
  {
    icon: SyncIcon,
    title: msg('Bidirectional Data Sync'),
    text: msg('Pull from and push to external systems through managed API integrations.'),
  },
  {
    icon: BuildingIcon,
    title: msg('Multi-Company Access Control'),
    text: msg('Staff see exactly the companies they are responsible for, and nothing else.'),
  },
  {
    icon: ChartIcon,
    title: msg('Budgets, Expenses & Revenue'),
    text: msg('Plan and track budgets, actual expenses, projections and revenue per department.'),
  },
  {
    icon: LockIcon,
    title: msg('Backup & Recovery'),
    text: msg('Verified backups and all-or-nothing restores keep the books safe.'),
  },
];

const TYPE_BADGE: Record<string, string> = {
  mobile: 'bg-orange-100 text-orange-800',
  infrastructure: 'bg-blue-100 text-blue-800',
  fintech: 'bg-green-100 text-green-800',
  marketing: 'bg-purple-100 text-purple-800',
};

const TYPE_LABEL: Record<string, string> = {
  mobile: msg('mobile'),
  infrastructure: msg('infrastructure'),
  fintech: msg('fintech'),
  marketing: msg('marketing'),
};

export function Landing({
  companies,
  stats,
}: {
  companies: { id: number; name: string; type: string; description: string | null }[];
  stats: LandingStatsView;
}) {
  const t = useT();
  const f = useFormats();
  return (
    <div className="min-h-full bg-gradient-to-b from-slate-900 via-slate-800 to-slate-50" data-testid="landing">
      <section className="mx-auto max-w-5xl px-6 pb-16 pt-20 text-center text-white">
        <p className="text-sm font-medium uppercase tracking-widest text-blue-300" translate="no">
          Group Finance Hub
        </p>
        <h1 className="mt-4 text-4xl font-bold sm:text-5xl">{t('Financial Data Warehouse & Analytics Platform')}</h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-300">
          {t(
            "One place for the group's budgets, expenses, revenue and subscriber metrics — with AI insights, audit trails and company-level access control.",
          )}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link
            to="/login"
            className="rounded-md bg-blue-600 px-6 py-3 font-medium text-white shadow hover:bg-blue-500"
          >
            {t('Access Platform')}
          </Link>
          <Link
            to="/api-documentation"
            className="rounded-md border border-slate-400 px-6 py-3 font-medium text-white hover:bg-white/10"
          >
            {t('View Documentation')}
          </Link>
        </div>
        <dl className="mx-auto mt-12 grid max-w-3xl grid-cols-2 gap-6 sm:grid-cols-4" data-testid="landing-stats">
          {statsRow(stats, f).map((s) => (
            <div key={s.label}>
              <dt className="text-sm text-slate-400">{t(s.label)}</dt>
              <dd className="text-3xl font-bold">{s.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="mx-auto max-w-5xl px-6 py-12">
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {CAPABILITIES.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <Icon className="h-7 w-7 text-blue-700" />
              <h2 className="mt-3 font-semibold text-slate-900">{t(title)}</h2>
              <p className="mt-1 text-sm text-slate-600">{t(text)}</p>
            </div>
          ))}
        </div>
      </section>

      <section className="mx-auto max-w-5xl px-6 py-8">
        <h2 className="text-center text-2xl font-semibold text-slate-900">{t('Our Companies')}</h2>
        <div className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {companies.map((c) => (
            <div key={c.id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${TYPE_BADGE[c.type] ?? 'bg-slate-100 text-slate-700'}`}
              >
                {t(TYPE_LABEL[c.type] ?? c.type)}
              </span>
              <h3 className="mt-3 font-semibold text-slate-900" translate="no">
                {c.name}
              </h3>
              {c.description ? (
                <p className="mt-1 text-sm text-slate-600" translate="no">
                  {c.description}
                </p>
              ) : null}
            </div>
          ))}
        </div>
      </section>

      <section className="mx-auto max-w-3xl px-6 py-12 text-center">
        <div className="flex flex-wrap justify-center gap-3">
          <Link
            to="/login"
            className="inline-flex items-center gap-2 rounded-md bg-slate-900 px-6 py-3 font-medium text-white hover:bg-slate-700"
          >
            <LockIcon className="h-4 w-4" /> {t('Secure Login')}
          </Link>
          <a
            href="/healthz"
            className="rounded-md border border-slate-300 bg-white px-6 py-3 font-medium text-slate-800 hover:bg-slate-50"
          >
            {t('System Status')}
          </a>
        </div>
        <blockquote className="mt-10 text-lg italic text-slate-600">
          {t('“What gets measured gets managed.”')}
          <footer className="mt-2 text-sm not-italic text-slate-500" translate="no">
            — Peter Drucker
          </footer>
        </blockquote>
      </section>
    </div>
  );
}
