// The generic list table: search and dropdown filter (a GET form), sortable headers (links),
// rows with edit and delete actions, and the pagination footer. Its links (AppLinks to queries
// of this page) and forms stay on this route, which the client knows already: no discovery.
import { Form, useLocation, useNavigation, useSubmit } from '@remix-run/react';
import { AppLink } from '../../ui/app-link.tsx';
import { useEffect, useRef, type ReactNode } from 'react';
import type { Choice, ResourceDef } from './define.ts';
import { withParams } from '../lib/url.ts';
import type { ScreenRow } from '../lib/packed-rows.ts';
import { DeleteForm, RowDeleteButton } from './delete-button.tsx';
import { inputClass } from '../../ui/form.tsx';
import { SearchIcon } from '../../ui/icons.tsx';
import { cellText } from './cell.tsx';
import { Pagination } from '../../ui/table/pagination.tsx';
import { ScrollRegion } from '../../ui/table/scroll-region.tsx';
import { columnLabels } from '../../ui/table/column-labels.ts';
import { useFormats, usePreferences, useT } from '../i18n/i18n-context.tsx';
import type { Translate } from '../i18n/messages.ts';
import { nounInText } from './noun.ts';
import { confirmDeleteText } from './texts.ts';

interface ListState {
  q: string;
  filter: string;
  companyId: string;
  sort: string | null;
  dir: 'asc' | 'desc' | null;
  page: number;
}

/** Formats right-aligned (figures line up). */
const NUMERIC = new Set<string | undefined>(['money', 'decimal', 'number', 'percent']);
/** Formats kept on one line (a date is not broken between its day and year). */
const WHOLE = new Set<string | undefined>(['date', 'instant', 'month']);

/** A cell's words from the declaration (an option's label, the text of an empty value) in the reader's language. */
function translatedCell(column: ResourceDef['list']['columns'][number], row: ScreenRow, text: string, t: Translate) {
  return isData(column, row) || !text ? text : t(text);
}

/** Whether a cell shows the row's data (marked translate="no", docs/languages.md), not the declaration's words. */
function isData(column: ResourceDef['list']['columns'][number], row: ScreenRow): boolean {
  const value = row[column.key];
  return column.format !== 'label' && value !== null && value !== undefined && value !== '';
}

export function ListToolbar({
  def,
  state,
  filterChoices,
  companyChoices = [],
  keep = {},
}: {
  def: ResourceDef;
  state: ListState;
  filterChoices: Choice[];
  companyChoices?: Choice[];
  keep?: Record<string, string | null>;
}) {
  const submit = useSubmit();
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const filter = def.list.filter;
  const hidden = { ...keep, sort: state.sort, dir: state.dir };
  const autoSubmit = (delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => formRef.current && submit(formRef.current, { replace: true, preventScrollReset: true }),
      delay,
    );
  };
  return (
    <Form
      method="get"
      discover="none"
      ref={formRef}
      role="search"
      className="flex flex-wrap items-end gap-2 border-b border-slate-200 p-4"
      preventScrollReset
    >
      {Object.entries(hidden).map(([name, value]) =>
        value ? <input key={name} type="hidden" name={name} value={value} /> : null,
      )}
      <label className="min-w-[12rem] flex-1">
        <span className="sr-only">{t('Search')}</span>
        <input
          type="search"
          name="q"
          defaultValue={state.q}
          placeholder={t('Search...')}
          className={inputClass}
          onChange={() => autoSubmit(350)}
        />
      </label>
      {def.list.companyFilter ? (
        <label>
          <span className="sr-only">{t('Company')}</span>
          <select
            name="companyId"
            defaultValue={state.companyId}
            className={inputClass}
            onChange={() => autoSubmit(0)}
            aria-label={t('Company')}
          >
            <option value="">{t('All Companies')}</option>
            {companyChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {filter ? (
        <label>
          <span className="sr-only">{t(filter.label)}</span>
          <select
            name={filter.param}
            defaultValue={state.filter}
            className={inputClass}
            onChange={() => autoSubmit(0)}
            aria-label={t(filter.label)}
          >
            <option value="">{t('All Filters')}</option>
            {filterChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit" className="btn-tool">
        <SearchIcon className="h-4 w-4" /> {t('Search')}
      </button>
    </Form>
  );
}

type ListSort = { state: ListState; defaultSort: { key: string; dir: 'asc' | 'desc' } };

/** The direction a column is sorted in, or null when the list is not sorted by it. */
function sortDirection(sortKey: string | undefined, { state, defaultSort }: ListSort): 'asc' | 'desc' | null {
  if (!sortKey || (state.sort ?? defaultSort.key) !== sortKey) return null;
  return state.dir ?? (state.sort ? 'asc' : defaultSort.dir);
}

/** aria-sort belongs on the column header (a link may not carry it). */
function ariaSort(sortKey: string | undefined, sort: ListSort): 'ascending' | 'descending' | undefined {
  const dir = sortDirection(sortKey, sort);
  return dir === null ? undefined : dir === 'asc' ? 'ascending' : 'descending';
}

function SortHeader({ label, sortKey, state, defaultSort }: { label: string; sortKey?: string } & ListSort) {
  const { search } = useLocation();
  if (!sortKey) return <>{label}</>;
  const currentDir = sortDirection(sortKey, { state, defaultSort });
  const active = currentDir !== null;
  const nextDir = currentDir === 'asc' ? 'desc' : 'asc';
  return (
    <AppLink to={withParams(search, { sort: sortKey, dir: nextDir, page: null })} className="sort-link">
      {label}
      <span aria-hidden="true" className="text-xs">
        {active ? (currentDir === 'asc' ? '▲' : '▼') : '↕'}
      </span>
    </AppLink>
  );
}

/** The row's secondary columns, under its first cell: 'Label: value' each. */
function SecondaryCells({
  def,
  columns,
  row,
}: {
  def: ResourceDef;
  columns: ResourceDef['list']['columns'];
  row: ScreenRow;
}) {
  const t = useT();
  const f = useFormats();
  return (
    <dl className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600">
      {columns.map((c) => (
        <div key={c.key} className="flex gap-1">
          <dt>{t('{label}:', { label: t(c.label) })}</dt>
          <dd className="text-slate-800" translate={isData(c, row) ? 'no' : undefined}>
            {translatedCell(c, row, cellText(def, c, row, f), t)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function useListLoading(): boolean {
  const navigation = useNavigation();
  const location = useLocation();
  return navigation.state === 'loading' && navigation.location?.pathname === location.pathname;
}

export function DataTable<R extends ScreenRow>({
  def,
  rows,
  state,
  total,
  page,
  pageCount,
  pageSize,
  canEdit,
  canDelete,
  extraCell,
}: {
  def: ResourceDef;
  rows: R[];
  state: ListState;
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
  canEdit: boolean;
  canDelete: boolean;
  /** An extra column before the actions (the category department remap). */
  extraCell?: { label: string; render: (row: R) => ReactNode };
}) {
  const { search } = useLocation();
  const t = useT();
  const f = useFormats();
  const { locale } = usePreferences();
  const noun = nounInText(t(def.noun), locale, true);
  const loading = useListLoading();
  const actions = canEdit || canDelete;
  const deleteForm = `delete-${def.key}`;
  const deleteMessage = (id: string) =>
    confirmDeleteText(def, { t, locale }, String(rows.find((row) => String(row.id) === id)?.name ?? ''));
  const columns = def.list.columns.filter((c) => !c.secondary);
  const secondary = def.list.columns.filter((c) => c.secondary);
  return (
    <div className="relative" aria-busy={loading}>
      {loading ? (
        <div className="absolute inset-0 z-10 flex items-start justify-center bg-white/60 pt-16" data-testid="loading">
          <span className="inline-flex items-center gap-2 rounded-md bg-white px-3 py-2 text-sm text-slate-600 shadow">
            <span className="h-4 w-4 animate-spin rounded-full border-2 border-blue-600 border-t-transparent" />{' '}
            {t('Loading...')}
          </span>
        </div>
      ) : null}
      <ScrollRegion label={t(def.title)}>
        {/* Cell padding and row hover are set once by .list-table, not on each of the page's cells. */}
        <table
          className="fit-table list-table"
          style={columnLabels([...columns.map((c) => t(c.label)), ...(extraCell ? [t(extraCell.label)] : [])])}
        >
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={ariaSort(c.sort, { state, defaultSort: def.list.defaultSort })}
                  className={NUMERIC.has(c.format) ? 'text-right' : undefined}
                >
                  <SortHeader label={t(c.label)} sortKey={c.sort} state={state} defaultSort={def.list.defaultSort} />
                </th>
              ))}
              {extraCell ? <th scope="col">{t(extraCell.label)}</th> : null}
              {actions ? (
                <th scope="col" className="text-right">
                  {t('Actions')}
                </th>
              ) : null}
            </tr>
          </thead>
          {/* Rows hold data (docs/languages.md): the cells with the app's own words say translate="yes". */}
          <tbody translate="no">
            {rows.length === 0 ? (
              <tr>
                <td
                  colSpan={columns.length + (actions ? 1 : 0) + (extraCell ? 1 : 0)}
                  className="!py-10 text-center text-slate-500"
                  translate="yes"
                >
                  {t('No results found.')}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id}>
                  {columns.map((c, i) => {
                    const full = row[c.key];
                    const text = translatedCell(c, row, cellText(def, c, row, f), t);
                    const data = isData(c, row);
                    const withSecondary = i === 0 && secondary.length > 0;
                    return (
                      <td
                        key={c.key}
                        className={
                          NUMERIC.has(c.format)
                            ? 'num'
                            : WHOLE.has(c.format)
                              ? 'nowrap'
                              : c.truncate
                                ? 'wrap-anywhere'
                                : undefined
                        }
                        title={c.truncate && typeof full === 'string' && full.length > c.truncate ? full : undefined}
                        translate={data && !withSecondary ? undefined : 'yes'}
                      >
                        {withSecondary ? (
                          <div>
                            {data ? <span translate="no">{text}</span> : text}
                            <SecondaryCells def={def} columns={secondary} row={row} />
                          </div>
                        ) : (
                          text
                        )}
                      </td>
                    );
                  })}
                  {extraCell ? (
                    <td className="!py-2" translate="yes">
                      {extraCell.render(row)}
                    </td>
                  ) : null}
                  {actions ? (
                    <td translate="yes">
                      <div className="row-actions">
                        {canEdit ? (
                          <AppLink
                            to={withParams(search, { edit: row.id, new: null })}
                            title={t('Edit')}
                            aria-label={t('Edit {noun} {id}', { noun, id: row.id })}
                          />
                        ) : null}
                        {canDelete ? (
                          <RowDeleteButton id={row.id} label={`${noun} ${row.id}`} form={deleteForm} />
                        ) : null}
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </ScrollRegion>
      {canDelete && rows.length > 0 ? <DeleteForm id={deleteForm} message={deleteMessage} /> : null}
      <Pagination page={page} pageCount={pageCount} total={total} pageSize={pageSize} />
    </div>
  );
}
