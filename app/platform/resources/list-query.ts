// Reading list parameters from a URL: the screens' page/search/filter/sort state and the
// API's limit/offset and documented filters. Bad API parameters are a 400; a screen treats
// nonsense (page=abc) as the default, since people edit URLs by hand.
import { z } from 'zod';
import { API_MAX_LIMIT, PAGE_SIZE } from '../lib/paging.ts';
import { integerParam } from '../lib/query-params.ts';
import { positiveIdParam } from '../lib/query.ts';
import { withoutNul } from '../lib/text.ts';
import { MAX_COUNT, type ResourceDef } from './define.ts';
import { fieldErrorsFromZod, invalid, type FieldError } from '../errors.ts';
import type { ListQuery } from './resources.server.ts';

function filterValue(def: ResourceDef, raw: string | null): string | number | null {
  if (!raw || !def.list.filter) return null;
  const field = def.fields.find((f) => f.name === def.list.filter!.column);
  // Nonsense becomes an id that matches nothing.
  if (field?.kind === 'reference') return positiveIdParam(raw) ?? -1;
  return raw;
}

interface ScreenListState {
  q: string;
  filter: string;
  /** The Company dropdown's value (`list.companyFilter`), '' for every company. */
  companyId: string;
  sort: string | null;
  dir: 'asc' | 'desc' | null;
  page: number;
}

export function screenListState(def: ResourceDef, params: URLSearchParams): ScreenListState {
  const page = Number(params.get('page'));
  const dir = params.get('dir');
  return {
    q: withoutNul(params.get('q') ?? '').slice(0, 200),
    filter: def.list.filter ? withoutNul(params.get(def.list.filter.param) ?? '') : '',
    companyId: def.list.companyFilter ? withoutNul(params.get('companyId') ?? '') : '',
    sort: params.get('sort'),
    dir: dir === 'asc' || dir === 'desc' ? dir : null,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

export function screenListQuery(def: ResourceDef, state: ScreenListState, extra: Partial<ListQuery> = {}): ListQuery {
  return {
    q: state.q || null,
    filter: filterValue(def, state.filter) as string | null,
    // Nonsense becomes an id that matches nothing; the user's company scope still applies.
    ...(state.companyId ? { companyId: positiveIdParam(state.companyId) ?? -1 } : {}),
    sort: state.sort,
    dir: state.dir,
    limit: PAGE_SIZE,
    offset: (state.page - 1) * PAGE_SIZE,
    ...extra,
  };
}

const ApiPagingSchema = z.object({
  limit: integerParam('limit', 1, API_MAX_LIMIT),
  offset: integerParam('offset', 0),
  companyId: integerParam('companyId', 1),
});

/** GET /api/<resource>: limit (default and maximum 1000), offset, q, sortBy/sortOrder and the documented filters. */
export function apiListQuery(def: ResourceDef, params: URLSearchParams): ListQuery {
  const paging = ApiPagingSchema.safeParse({
    limit: params.get('limit'),
    offset: params.get('offset'),
    companyId: params.get('companyId'),
  });
  const errors: FieldError[] = paging.success ? [] : fieldErrorsFromZod(paging.error.issues);
  const { limit = API_MAX_LIMIT, offset = 0, companyId = null } = paging.success ? paging.data : {};
  const sortOrder = params.get('sortOrder') ?? params.get('order');
  if (sortOrder !== null && sortOrder !== 'asc' && sortOrder !== 'desc')
    errors.push({ field: 'sortOrder', message: 'sortOrder must be asc or desc' });
  const sortBy = params.get('sortBy') ?? params.get('sort');
  if (sortBy !== null && !Object.hasOwn(def.list.sorts, sortBy)) {
    errors.push({ field: 'sortBy', message: `sortBy must be one of: ${Object.keys(def.list.sorts).join(', ')}` });
  }
  const exact: Record<string, number> = {};
  for (const name of def.list.exact ?? []) {
    const [min, max] = def.fields.find((f) => f.name === name)?.range ?? [0, MAX_COUNT];
    const parsed = integerParam(name, min, max).safeParse(params.get(name));
    if (!parsed.success) errors.push(...fieldErrorsFromZod(parsed.error.issues).map((e) => ({ ...e, field: name })));
    else if (parsed.data !== undefined) exact[name] = parsed.data;
  }
  if (errors.length) throw invalid(errors);
  const filterParam = def.list.filter?.param;
  return {
    q: withoutNul(params.get('q') || params.get('search') || null),
    filter: filterParam ? (filterValue(def, withoutNul(params.get(filterParam))) as string | null) : null,
    sort: sortBy,
    dir: sortOrder as 'asc' | 'desc' | null,
    limit,
    offset,
    companyId,
    company: params.get('company') || null,
    companyType: params.get('companyType') || null,
    source: params.get('source') || null,
    exact,
  };
}
