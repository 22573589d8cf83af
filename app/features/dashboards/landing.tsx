// The public landing page. Company cards come from the database.
import { Link } from '@remix-run/react';
import { BuildingIcon, ChartIcon, LockIcon, ShieldIcon, SparkIcon, SyncIcon } from '../../ui/icons.tsx';

export interface LandingStatsView {
  companies: number;
  departments: number;
  dataPoints: number;
  uptime: number | null;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** The stats row from the data; uptime only once it has been measured. */
function statsRow(stats: LandingStatsView) {
  return [
    { value: String(stats.companies), label: 'Companies' },
    { value: String(stats.departments), label: 'Departments per company' },
    {
      value: stats.dataPoints < 10_000 ? stats.dataPoints.toLocaleString('en-US') : compact.format(stats.dataPoints),
      label: 'Data points',
    },
    ...(stats.uptime === null ? [] : [{ value: `${stats.uptime.toFixed(1)}%`, label: 'Uptime (7 days)' }]),
  ];
}

const CAPABILITIES = [
  {
    icon: SparkIcon,
    title: 'AI Predictive Analytics',
    text: 'Expense predictions, anomaly detection and budget analysis computed from your own figures.',
  },
  {
    icon: ShieldIcon,
    title: 'Role-Based Access & Audit Trails',
    text: 'Owners, admins, editors and viewers, with every change recorded and versioned.',
  },
  {
    icon: SyncIcon,
    title: 'Bidirectional Data Sync',
    text: 'Pull from and push to external systems through managed API integrations.',
  },
  {
    icon: BuildingIcon,
    title: 'Multi-Company Access Control',
    text: 'Staff see exactly the companies they are responsible for, and nothing else.',
  },
  {
    icon: ChartIcon,
    title: 'Budgets, Expenses & Revenue',
    text: 'Plan and track budgets, actual expenses, projections and revenue per department.',
  },
  {
    icon: LockIcon,
    title: 'Backup & Recovery',
    text: 'Verified backups and all-or-nothing restores keep the books safe.',
  },
];

const TYPE_BADGE: Record<string, string> = {
  mobile: 'bg-orange-100 text-orange-800',
  infrastructure: 'bg-blue-100 text-blue-800',
  fintech: 'bg-green-100 text-green-800',
  marketing: 'bg-purple-100 text-purple-800',
};

export function Landing({
  companies,
  stats,
}: {
  companies: { id: number; name: string; type: string; description: string | null }[];
  stats: LandingStatsView;
}) {
  return (
    <div className="min-h-full bg-gradient-to-b from-slate-900 via-slate-800 to-slate-50" data-testid="landing">
      <section className="mx-auto max-w-5xl px-6 pb-16 pt-20 text-center text-white">
        <p className="text-sm font-medium uppercase tracking-widest text-blue-300">Group Finance Hub</p>
        <h1 className="mt-4 text-4xl font-bold sm:text-5xl">Financial Data Warehouse &amp; Analytics Platform</h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-300">
          One place for the group's budgets, expenses, revenue and subscriber metrics — with AI insights, audit trails
          and company-level access control.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link
            to="/login"
            className="rounded-md bg-blue-600 px-6 py-3 font-medium text-white shadow hover:bg-blue-500"
          >
            Access Platform
          </Link>
          <Link
            to="/api-documentation"
            className="rounded-md border border-slate-400 px-6 py-3 font-medium text-white hover:bg-white/10"
          >
            View Documentation
          </Link>
        </div>
        <dl className="mx-auto mt-12 grid max-w-3xl grid-cols-2 gap-6 sm:grid-cols-4" data-testid="landing-stats">
          {statsRow(stats).map((s) => (
            <div key={s.label}>
              <dt className="text-sm text-slate-400">{s.label}</dt>
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
              <h2 className="mt-3 font-semibold text-slate-900">{title}</h2>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </div>
          ))}
        </div>
      </section>

      <section className="mx-auto max-w-5xl px-6 py-8">
        <h2 className="text-center text-2xl font-semibold text-slate-900">Our Companies</h2>
        <div className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {companies.map((c) => (
            <div key={c.id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <span
                className={`rounded-full px-2 py-0.5 text-xs font-medium ${TYPE_BADGE[c.type] ?? 'bg-slate-100 text-slate-700'}`}
              >
                {c.type}
              </span>
              <h3 className="mt-3 font-semibold text-slate-900">{c.name}</h3>
              {c.description ? <p className="mt-1 text-sm text-slate-600">{c.description}</p> : null}
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
            <LockIcon className="h-4 w-4" /> Secure Login
          </Link>
          <a
            href="/healthz"
            className="rounded-md border border-slate-300 bg-white px-6 py-3 font-medium text-slate-800 hover:bg-slate-50"
          >
            System Status
          </a>
        </div>
        <blockquote className="mt-10 text-lg italic text-slate-600">
          “What gets measured gets managed.”
          <footer className="mt-2 text-sm not-italic text-slate-500">— Peter Drucker</footer>
        </blockquote>
      </section>
    </div>
  );
}
