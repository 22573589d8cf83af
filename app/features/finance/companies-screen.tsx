// The Companies screen: a card grid (name, type badge, description, created date) with the
// generic resource overlays (form, delete confirmation) and pagination.
import { Link, useLocation, type useLoaderData } from '@remix-run/react';
import { DeleteButton } from '../../platform/resources/delete-button.tsx';
import {
  AddButton,
  ExportButton,
  exportHref,
  ImportButton,
  ResourceOverlays,
} from '../../platform/resources/resource-screen.tsx';
import { PageHeading } from '../../ui/page-heading.tsx';
import { useListLoading } from '../../platform/resources/data-table.tsx';
import { Pagination } from '../../ui/table/pagination.tsx';
import { PencilIcon } from '../../ui/icons.tsx';
import { DateTime } from '../../platform/i18n/date-time.tsx';
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { unpackRows } from '../../platform/lib/packed-rows.ts';
import { withParams } from '../../platform/lib/url.ts';
import { COMPANY_TYPE_LABELS } from '../../platform/resources/shared.ts';
import { screenTitle } from '../../platform/screen/navigation.ts';
import { companies } from './companies.ts';
import type { loader } from './companies-route.server.ts';

/** Badge colours by company type: mobile orange, infrastructure blue, fintech green, marketing purple, other grey. */
const TYPE_BADGE: Record<string, string> = {
  mobile: 'bg-orange-100 text-orange-800',
  infrastructure: 'bg-blue-100 text-blue-800',
  fintech: 'bg-green-100 text-green-800',
  marketing: 'bg-purple-100 text-purple-800',
};

export type CompaniesData = ReturnType<typeof useLoaderData<typeof loader>>;

export function CompaniesScreen({ data }: { data: CompaniesData }) {
  const { search } = useLocation();
  const loading = useListLoading();
  const t = useT();
  return (
    <div>
      <PageHeading title={t(screenTitle('/companies'))}>
        <div className="flex flex-wrap gap-2">
          <ExportButton href={exportHref(companies, search)} />
          {data.can.create ? <ImportButton def={companies} /> : null}
          {data.can.create ? <AddButton noun="Company" /> : null}
        </div>
      </PageHeading>
      <ResourceOverlays def={companies} />
      {loading ? (
        <p className="mb-4 flex items-center gap-2 text-sm text-slate-600" data-testid="loading">
          <span className="h-4 w-4 animate-spin rounded-full border-2 border-blue-600 border-t-transparent" />{' '}
          {t('Loading...')}
        </p>
      ) : null}
      {data.total === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-10 text-center">
          <p className="text-slate-600">{t('No companies found')}</p>
          {data.can.create ? (
            <div className="mt-4">
              <AddButton noun="Company" />
            </div>
          ) : null}
        </div>
      ) : (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {unpackRows(data.rows).map((company) => {
              const type = COMPANY_TYPE_LABELS[company.type ?? ''];
              return (
                <li
                  key={company.id}
                  className="flex flex-col rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
                  data-testid="company-card"
                >
                  <div className="flex items-start justify-between gap-2">
                    <h2 className="text-lg font-semibold text-slate-900" translate="no">
                      {company.name}
                    </h2>
                    <span
                      className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${TYPE_BADGE[company.type ?? ''] ?? 'bg-slate-100 text-slate-700'}`}
                      translate={type ? undefined : 'no'}
                    >
                      {type ? t(type) : company.type}
                    </span>
                  </div>
                  <p className="mt-2 flex-1 text-sm text-slate-600" translate="no">
                    {company.description}
                  </p>
                  <div className="mt-4 flex items-center justify-between text-xs text-slate-500">
                    <span>
                      {t('Created')} <DateTime value={company.createdAt} kind="instantDate" />
                    </span>
                    <div className="flex gap-1">
                      {data.can.edit ? (
                        <Link
                          to={withParams(search, { edit: company.id, new: null })}
                          preventScrollReset
                          className="rounded p-1.5 text-blue-700 hover:bg-blue-50"
                          title={t('Edit')}
                          aria-label={t('Edit {noun}', { noun: company.name ?? '' })}
                        >
                          <PencilIcon className="h-4 w-4" />
                        </Link>
                      ) : null}
                      {data.can.delete ? (
                        <DeleteButton
                          id={company.id}
                          label={company.name ?? ''}
                          message={t('Are you sure you want to delete {name}?', { name: company.name ?? '' })}
                        />
                      ) : null}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
          {data.pageCount > 1 ? (
            <div className="mt-4 rounded-lg border border-slate-200 bg-white">
              <Pagination page={data.page} pageCount={data.pageCount} total={data.total} pageSize={data.pageSize} />
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
