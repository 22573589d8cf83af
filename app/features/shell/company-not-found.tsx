// A company screen whose company does not exist ('One Network Company Not Found').
import { PageHeading } from '../../ui/page-heading.tsx';

export function CompanyNotFound({ title, name }: { title: string; name: string }) {
  return (
    <div>
      <PageHeading title={title} />
      <div
        role="status"
        data-testid="company-not-found"
        className="rounded-lg border border-amber-300 bg-amber-50 p-6 text-amber-900"
      >
        <h2 className="text-lg font-semibold">{name} Company Not Found</h2>
        <p className="mt-1 text-sm">Please ensure the {name} company is created in the system.</p>
      </div>
    </div>
  );
}
