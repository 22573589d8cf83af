// The Anomalies tab: the recorded security anomalies (many deletes by one user in a short
// window), each with what those deletes removed, per table as its screen is titled.
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';
import type { DeletedTally } from './audit-readable.server.ts';
import type { SecurityAnomaly } from './audit-trail.server.ts';

export type AnomalyShown = SecurityAnomaly & { deleted: DeletedTally[] };

export function Anomalies({ anomalies }: { anomalies: AnomalyShown[] }) {
  const t = useT();
  const f = useFormats();
  return (
    <section className="rounded-lg border border-slate-200 bg-white shadow-sm">
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
        {t('Security Anomalies')}
      </h2>
      {anomalies.length === 0 ? (
        <p className="px-4 py-10 text-center text-slate-500">{t('No anomalies detected')}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {anomalies.map((a) => (
            <li key={a.id} className="px-4 py-3 text-sm" data-testid="anomaly">
              <p className="text-slate-900" translate="no">
                {a.description}
              </p>
              <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-slate-600">
                <span>
                  {t('User:')}{' '}
                  <span className="font-medium" translate="no">
                    {a.username}
                  </span>
                </span>
                <span className="font-medium text-red-700">
                  {t('{count, plural, one {# delete} other {# deletes}}', { count: a.deleteCount })}
                </span>
                <span>
                  {t('Window: {start} – {end}', { start: f.instant(a.windowStart), end: f.instant(a.windowEnd) })}
                </span>
                <span>{t('Detected {when}', { when: f.instant(a.createdAt) })}</span>
              </p>
              {a.deleted.length > 0 ? (
                <p className="mt-1 text-slate-700" data-testid="anomaly-deleted">
                  {t('Deleted: {tables}', {
                    tables: a.deleted.map((d) => `${t(d.table)} (${f.number(d.count)})`).join(', '),
                  })}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
