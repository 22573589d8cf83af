// Page sizes of lists: what a screen shows at once, and the most one /api call returns
// (default and maximum 1000, so no call can pull a million rows; docs/api.md).

/** Rows a list screen shows per page (users included). */
export const PAGE_SIZE = 10;
/** Activity history rows per page. */
export const HISTORY_PAGE_SIZE = 25;
/** The default and maximum `limit` of an /api list. */
export const API_MAX_LIMIT = 1000;

/** The last page that has rows (1 when there are none). */
export function lastPage(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Which rows of a long, ranked result a page holds ('Show more' moves `offset` on by `size`). */
export interface RankedPage {
  offset: number;
  size: number;
  total: number;
}

/** ?offset= of a ranked result: where the page starts, a multiple of the page size. */
export function offsetParam(url: URL, size: number): number {
  const value = Number(url.searchParams.get('offset'));
  return Number.isSafeInteger(value) && value > 0 ? value - (value % size) : 0;
}
