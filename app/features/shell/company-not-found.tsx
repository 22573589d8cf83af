// A company screen whose company does not exist ('One Network Company Not Found').
import { PageHeading } from '../../ui/page-heading.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export function CompanyNotFound({ title, name }: { title: string; name: string }) {
  const t = useT();
  return (
    <div>
      <PageHeading title={t(title)} />
      <div
        role="status"
        data-testid="company-not-found"
        className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-amber-900"
      >
        <h2 className="text-lg font-semibold">{t('{name} Company Not Found', { name })}</h2>
        <p className="mt-1 text-sm">{t('Please ensure the {name} company is created in the system.', { name })}</p>
      </div>
    </div>
  );
}
