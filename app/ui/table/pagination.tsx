// 'Showing X to Y of Z results' with Previous/Next and numbered page links (links, so they work
// without JavaScript). The buttons show only when there is more than one page. The links are
// queries of this page (AppLinks: the scroll stays, no route to discover). Styled by
// .pager (tailwind.css): the links, the current page, and the ends as disabled spans.
import { useLocation } from '@remix-run/react';
import { AppLink } from '../app-link.tsx';
import { withParams } from '../../platform/lib/url.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';

/** Page numbers to show: first, last, and two either side of the current one. */
export function pageWindow(page: number, pageCount: number): (number | 'gap')[] {
  const pages = new Set([1, pageCount]);
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pageCount) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | 'gap')[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push('gap');
    out.push(p);
  });
  return out;
}

export function Pagination({
  page,
  pageCount,
  total,
  pageSize,
  param = 'page',
}: {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  param?: string;
}) {
  const { search } = useLocation();
  const t = useT();
  const f = useFormats();
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav className="pager-bar" aria-label={t('Pagination')}>
      <p className="text-sm text-slate-600" data-testid="showing">
        {t('Showing {from} to {to} of {total} results', {
          from: f.number(from),
          to: f.number(to),
          total: f.number(total),
        })}
      </p>
      {pageCount > 1 ? (
        <div className="pager">
          {page > 1 ? (
            <AppLink to={withParams(search, { [param]: page - 1 })}>{t('Previous')}</AppLink>
          ) : (
            <span aria-disabled="true">{t('Previous')}</span>
          )}
          {pageWindow(page, pageCount).map((p, i) =>
            p === 'gap' ? (
              <span key={`gap-${i}`} className="px-2 text-slate-500">
                …
              </span>
            ) : (
              <AppLink key={p} to={withParams(search, { [param]: p })} aria-current={p === page ? 'page' : undefined}>
                {p}
              </AppLink>
            ),
          )}
          {page < pageCount ? (
            <AppLink to={withParams(search, { [param]: page + 1 })}>{t('Next')}</AppLink>
          ) : (
            <span aria-disabled="true">{t('Next')}</span>
          )}
        </div>
      ) : null}
    </nav>
  );
}
