// Reading list parameters from URLs (pure): the screens' forgiving page/search/filter/sort
// state and the API's strict limit/offset/sort validation (docs/screens.md, docs/api.md).
import { describe, expect, it } from 'vitest';
import {
  actualRevenue,
  budgets,
  companies,
  departments,
  subscriberMetrics,
  vultCardTypes,
} from '../../features/resources.ts';
import { DomainError } from '../errors.ts';
import { API_MAX_LIMIT, lastPage, PAGE_SIZE } from '../lib/paging.ts';
import { apiListQuery, screenListQuery, screenListState } from './list-query.ts';
import type { ResourceDef } from './define.ts';

const params = (query: string) => new URLSearchParams(query);

/** The field errors of an apiListQuery call that must fail. */
function apiErrors(query: string, def: ResourceDef = budgets): { field: string; message: string }[] {
  try {
    apiListQuery(def, params(query));
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const domain = error as DomainError;
    expect(domain.kind).toBe('invalid');
    expect(domain.status).toBe(400);
    expect(domain.message).toBe('Invalid data');
    return domain.errors ?? [];
  }
  throw new Error(`apiListQuery accepted ${query}`);
}

describe('constants', () => {
  it('screens show 10 rows a page; the API returns at most 1000', () => {
    expect(PAGE_SIZE).toBe(10);
    expect(API_MAX_LIMIT).toBe(1000);
  });
});

describe('screenListState', () => {
  it('defaults: page 1, empty search and filter, no sort', () => {
    expect(screenListState(budgets, params(''))).toEqual({
      q: '',
      filter: '',
      companyId: '',
      sort: null,
      dir: null,
      page: 1,
    });
  });

  it('keeps the Company dropdown of a list of several companies: nonsense is an id that matches nothing', () => {
    expect(screenListState(budgets, params('companyId=3')).companyId).toBe('3');
    expect(screenListQuery(budgets, screenListState(budgets, params('companyId=3'))).companyId).toBe(3);
    expect(screenListQuery(budgets, screenListState(budgets, params('companyId=abc'))).companyId).toBe(-1);
    expect(screenListQuery(budgets, screenListState(budgets, params(''))).companyId).toBeUndefined();
    // A list without the dropdown ignores the parameter.
    expect(screenListState(departments, params('companyId=3')).companyId).toBe('');
  });

  it.each([
    ['abc', 1],
    ['', 1],
    ['0', 1],
    ['-1', 1],
    ['-100', 1],
    ['2.5', 1],
    ['NaN', 1],
    ['Infinity', 1],
    ['9007199254740993', 1], // beyond a safe integer
    ['1', 1],
    ['2', 2],
    ['999999', 999999], // huge pages are kept; the loader clamps to the last page with rows
  ])('page=%s → %i', (page, expected) => {
    expect(screenListState(budgets, params(`page=${encodeURIComponent(page)}`)).page).toBe(expected);
  });

  it('keeps q (cut at 200 characters), the declared filter parameter, sort, and only asc/desc for dir', () => {
    const state = screenListState(budgets, params(`q=${'x'.repeat(250)}&departmentId=7&sort=amount&dir=asc`));
    expect(state.q).toHaveLength(200);
    expect(state).toMatchObject({ filter: '7', sort: 'amount', dir: 'asc' });
    expect(screenListState(budgets, params('dir=up')).dir).toBeNull();
    expect(screenListState(budgets, params('dir=desc')).dir).toBe('desc');
  });

  it("reads the filter from the declaration's own parameter and ignores it without a filter", () => {
    expect(screenListState(actualRevenue, params('source=Roaming&departmentId=3')).filter).toBe('Roaming');
    expect(screenListState(subscriberMetrics, params('metricName=arpu')).filter).toBe('arpu');
    expect(screenListState(companies, params('type=fintech')).filter).toBe('fintech');
    expect(screenListState(departments, params('departmentId=3')).filter).toBe('');
  });
});

describe('screenListQuery', () => {
  it('turns a page into limit 10 and offset (page - 1) × 10, with fixed extras on top', () => {
    const state = screenListState(budgets, params('page=3&q=rent'));
    expect(screenListQuery(budgets, state)).toMatchObject({ q: 'rent', limit: 10, offset: 20 });
    expect(screenListQuery(budgets, state, { companyId: 4 })).toMatchObject({ companyId: 4, offset: 20 });
    expect(screenListQuery(budgets, screenListState(budgets, params(''))).q).toBeNull();
  });

  it('a reference filter becomes a number, and nonsense becomes an id that matches nothing', () => {
    expect(screenListQuery(budgets, screenListState(budgets, params('departmentId=12'))).filter).toBe(12);
    expect(screenListQuery(budgets, screenListState(budgets, params('departmentId=abc'))).filter).toBe(-1);
    expect(screenListQuery(budgets, screenListState(budgets, params('departmentId='))).filter).toBeNull();
    expect(screenListQuery(actualRevenue, screenListState(actualRevenue, params('source=Roaming'))).filter).toBe(
      'Roaming',
    );
  });
});

describe('lastPage', () => {
  it.each([
    [0, 1],
    [1, 1],
    [9, 1],
    [10, 1],
    [11, 2],
    [20, 2],
    [21, 3],
    [1_000_001, 100_001],
  ])('lastPage(%i) = %i', (total, expected) => {
    expect(lastPage(total)).toBe(expected);
  });

  it('takes another page size', () => {
    expect(lastPage(0, 25)).toBe(1);
    expect(lastPage(26, 25)).toBe(2);
  });
});

describe('apiListQuery', () => {
  it('defaults: limit 1000, offset 0, no filters', () => {
    expect(apiListQuery(budgets, params(''))).toEqual({
      q: null,
      filter: null,
      sort: null,
      dir: null,
      limit: 1000,
      offset: 0,
      companyId: null,
      company: null,
      companyType: null,
      source: null,
      exact: {},
    });
  });

  it('reads every documented parameter', () => {
    expect(
      apiListQuery(
        budgets,
        params(
          'limit=5&offset=15&q=rent&sortBy=amount&sortOrder=desc&companyId=2&company=Vult&companyType=fintech&departmentId=4',
        ),
      ),
    ).toEqual({
      q: 'rent',
      filter: 4,
      sort: 'amount',
      dir: 'desc',
      limit: 5,
      offset: 15,
      companyId: 2,
      company: 'Vult',
      companyType: 'fintech',
      source: null,
      exact: {},
    });
    // Monthly figures filter by year and month (their declaration's exact fields), within their ranges.
    expect(apiListQuery(vultCardTypes, params('year=2026&month=3&budgets=1')).exact).toEqual({ year: 2026, month: 3 });
    expect(apiListQuery(budgets, params('year=2026')).exact).toEqual({});
    expect(() => apiListQuery(vultCardTypes, params('year=2031'))).toThrow('Invalid data');
    expect(apiListQuery(actualRevenue, params('source=Roaming'))).toMatchObject({
      filter: 'Roaming',
      source: 'Roaming',
    });
    expect(apiListQuery(subscriberMetrics, params('metricName=arpu&companyType=mobile'))).toMatchObject({
      filter: 'arpu',
      companyType: 'mobile',
    });
    expect(apiListQuery(companies, params('type=mobile'))).toMatchObject({ filter: 'mobile' });
  });

  it('accepts the aliases search, sort and order, and the bounds 1 and 1000', () => {
    expect(apiListQuery(budgets, params('search=rent&sort=startDate&order=asc'))).toMatchObject({
      q: 'rent',
      sort: 'startDate',
      dir: 'asc',
    });
    expect(apiListQuery(budgets, params('limit=1')).limit).toBe(1);
    expect(apiListQuery(budgets, params('limit=1000')).limit).toBe(1000);
    expect(apiListQuery(budgets, params('offset=0')).offset).toBe(0);
    expect(apiListQuery(budgets, params('offset=5000000')).offset).toBe(5_000_000);
    // Empty values are "not given".
    expect(apiListQuery(budgets, params('limit=&offset=&companyId='))).toMatchObject({
      limit: 1000,
      offset: 0,
      companyId: null,
    });
  });

  it('a non-numeric reference filter matches nothing rather than failing', () => {
    expect(apiListQuery(budgets, params('departmentId=x')).filter).toBe(-1);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=-5', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=1e3', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=abc', 'offset'],
    ['offset=99999999999999999999', 'offset'],
    ['companyId=0', 'companyId'],
    ['companyId=abc', 'companyId'],
    ['sortOrder=up', 'sortOrder'],
    ['order=ASC', 'sortOrder'],
    ['sortBy=unknown', 'sortBy'],
    ['sortBy=amountCents', 'sortBy'],
    ['sortBy=__proto__', 'sortBy'],
  ])('%s is a 400 on %s', (query, field) => {
    const errors = apiErrors(query);
    expect(errors).toHaveLength(1);
    expect(errors[0].field).toBe(field);
    expect(errors[0].message).toMatch(new RegExp(`^${field}`));
  });

  it('names the allowed sort keys and the limit range', () => {
    expect(apiErrors('sortBy=nope')).toEqual([
      { field: 'sortBy', message: 'sortBy must be one of: startDate, endDate, amount' },
    ]);
    expect(apiErrors('limit=0')).toEqual([{ field: 'limit', message: 'limit must be an integer from 1 to 1000' }]);
    expect(apiErrors('offset=-1')).toEqual([{ field: 'offset', message: 'offset must be an integer of at least 0' }]);
    expect(apiErrors('sortOrder=up')).toEqual([{ field: 'sortOrder', message: 'sortOrder must be asc or desc' }]);
  });

  it('reports every bad parameter at once', () => {
    expect(
      apiErrors('limit=0&offset=-1&sortOrder=up&sortBy=x&companyId=z')
        .map((e) => e.field)
        .sort(),
    ).toEqual(['companyId', 'limit', 'offset', 'sortBy', 'sortOrder']);
  });

  it('sort keys are per resource', () => {
    expect(apiListQuery(departments, params('sortBy=name')).sort).toBe('name');
    expect(apiErrors('sortBy=amount', departments)[0].field).toBe('sortBy');
    expect(apiListQuery(subscriberMetrics, params('sortBy=metricValue')).sort).toBe('metricValue');
  });
});
