import { Link, useLocation } from '@remix-run/react';
import type { RankedPage } from '../../platform/lib/paging.ts';
import { useFormats, useT } from '../../platform/i18n/i18n-context.tsx';

/**
 * Where a long, ranked result stands and a 'Show more' link to its next rows (the same URL with
 * ?offset= moved on: no JavaScript needed), with a way back to the first rows.
 */
export function ShowMore({ page, noun }: { page: RankedPage | null; noun: string }) {
  const { search } = useLocation();
  const t = useT();
  const f = useFormats();
  if (!page || page.total === 0) return null;
  const to = (offset: number) => {
    const params = new URLSearchParams(search);
    params.delete('run');
    if (offset > 0) params.set('offset', String(offset));
    else params.delete('offset');
    return `?${params}`;
  };
  const last = Math.min(page.total, page.offset + page.size);
  return (
    <nav
      aria-label={t('More {noun}', { noun })}
      className="mt-3 flex flex-wrap items-center gap-4 text-sm text-slate-700"
      data-testid="show-more"
    >
      <span>
        {t('Showing {first}–{last} of {total} {noun}, ranked', {
          first: f.number(page.offset + 1),
          last: f.number(last),
          total: f.number(page.total),
          noun,
        })}
      </span>
      {page.offset > 0 ? (
        <Link to={to(0)} className="text-blue-700 underline">
          {t('Back to the first')}
        </Link>
      ) : null}
      {last < page.total ? (
        <Link to={to(page.offset + page.size)} className="font-medium text-blue-700 underline">
          {t('Show more')}
        </Link>
      ) : null}
    </nav>
  );
}
