// Reading list parameters from a URL: the screens' page/search/filter/sort state and the
// API's limit/offset and documented filters. Bad API parameters are a 400; a screen treats
// nonsense (page=abc) as the default, since people edit URLs by hand.
import type { ResourceDef } from '../resources/define.ts';
import { invalid, type FieldError } from './errors.ts';
import type { ListQuery } from './resources.server.ts';

export const PAGE_SIZE = 10;
export const API_MAX_LIMIT = 1000;

function filterValue(def: ResourceDef, raw: string | null): string | number | null {
  if (!raw || !def.list.filter) return null;
  const field = def.fields.find((f) => f.name === def.list.filter!.column);
  if (field?.kind === 'reference') return /^\d{1,9}$/.test(raw) ? Number(raw) : -1;
  return raw;
}

export interface ScreenListState {
  q: string;
  filter: string;
  sort: string | null;
  dir: 'asc' | 'desc' | null;
  page: number;
}

export function screenListState(def: ResourceDef, params: URLSearchParams): ScreenListState {
  const page = Number(params.get('page'));
  const dir = params.get('dir');
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    filter: def.list.filter ? params.get(def.list.filter.param) ?? '' : '',
    sort: params.get('sort'),
    dir: dir === 'asc' || dir === 'desc' ? dir : null,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

export function screenListQuery(def: ResourceDef, state: ScreenListState, extra: Partial<ListQuery> = {}): ListQuery {
  return {
    q: state.q || null,
    filter: filterValue(def, state.filter) as string | null,
    sort: state.sort,
    dir: state.dir,
    limit: PAGE_SIZE,
    offset: (state.page - 1) * PAGE_SIZE,
    ...extra,
  };
}

/** The last page that has rows (1 when there are none). */
export function lastPage(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

function integerParam(params: URLSearchParams, name: string, errors: FieldError[], min: number, max?: number): number | null {
  const raw = params.get(name);
  if (raw === null || raw === '') return null;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
    errors.push({ field: name, message: max !== undefined ? `${name} must be an integer from ${min} to ${max}` : `${name} must be an integer of at least ${min}` });
    return null;
  }
  return value;
}

/** GET /api/<resource>: limit (default and maximum 1000), offset, q, sortBy/sortOrder and the documented filters. */
export function apiListQuery(def: ResourceDef, params: URLSearchParams): ListQuery {
  const errors: FieldError[] = [];
  const limit = integerParam(params, 'limit', errors, 1, API_MAX_LIMIT) ?? API_MAX_LIMIT;
  const offset = integerParam(params, 'offset', errors, 0) ?? 0;
  const companyId = integerParam(params, 'companyId', errors, 1);
  const sortOrder = params.get('sortOrder') ?? params.get('order');
  if (sortOrder !== null && sortOrder !== 'asc' && sortOrder !== 'desc') errors.push({ field: 'sortOrder', message: 'sortOrder must be asc or desc' });
  const sortBy = params.get('sortBy') ?? params.get('sort');
  if (sortBy !== null && !Object.hasOwn(def.list.sorts, sortBy)) {
    errors.push({ field: 'sortBy', message: `sortBy must be one of: ${Object.keys(def.list.sorts).join(', ')}` });
  }
  if (errors.length) throw invalid(errors);
  const filterParam = def.list.filter?.param;
  return {
    q: params.get('q') || params.get('search') || null,
    filter: filterParam ? (filterValue(def, params.get(filterParam)) as string | null) : null,
    sort: sortBy,
    dir: sortOrder as 'asc' | 'desc' | null,
    limit,
    offset,
    companyId,
    company: params.get('company') || null,
    companyType: params.get('companyType') || null,
    source: params.get('source') || null,
  };
}
