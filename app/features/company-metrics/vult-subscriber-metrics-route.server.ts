// The /vult-subscriber-metrics route's server half: one month of the company named 'Vult'
// (?year=&month=, else the latest of the tab's table). Overview: the figures, card penetration
// and the 12-month chart; levels and card types of that month. Each row is edited in a dialog
// opened by the URL (?edit=ID); the tab of the posted URL picks the table.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { resourceAction, screenPermissions } from '../../platform/resources/resource-screen.server.ts';
import { loadScreen } from '../../platform/screen/screen.server.ts';
import { resourceScreenAccess } from '../../platform/screen/route-access.ts';
import { FINANCIAL_SERVICES_COMPANY } from '../../platform/screen/navigation.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import { findScreenCompany } from '../../platform/companies.server.ts';
import { notFound } from '../../platform/errors.ts';
import { getRecord, listRecords } from '../../platform/resources/resources.server.ts';
import type { ResourceDef } from '../../platform/resources/define.ts';
import { monthOf, MONTHS_IN_RANGE, requestedMonth, trendRows } from './data.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from './vult.ts';
import { SUBSCRIBER_METRICS_TABS as tabs } from './vult-subscriber-metrics-screen.tsx';
import { requestI18n } from '../shell/index.server.ts';

/** A month has one row per level or card type: at most six. */
const MONTH_ROWS = 10;

export const access = resourceScreenAccess(vultSubscriberMetrics);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = tabs.tabOf(url);
    const company = await findScreenCompany(ctx, FINANCIAL_SERVICES_COMPANY);
    if (!company) return { company: null, tab };
    const def = tabs.defOf(url);
    const companyId = company.id;
    // The tab's newest row is the default month (lists come newest month first).
    const latest = async () => monthOf((await listRecords(ctx, def, { limit: 1, offset: 0, companyId })).rows[0]);
    const month = requestedMonth(url.searchParams) ?? (await latest());
    const monthRows = async <D extends ResourceDef>(of: D) =>
      month ? (await listRecords(ctx, of, { limit: MONTH_ROWS, offset: 0, companyId, exact: { ...month } })).rows : [];
    // The rows typed by their tab's table.
    const shown =
      tab === 'levels'
        ? { tab, rows: await monthRows(vultSubscriberLevels) }
        : tab === 'cards'
          ? { tab, rows: await monthRows(vultCardTypes) }
          : { tab, rows: await monthRows(vultSubscriberMetrics) };
    const allMetrics = async () =>
      (await listRecords(ctx, vultSubscriberMetrics, { limit: MONTHS_IN_RANGE, offset: 0, companyId })).rows;
    const trend = tab === 'overview' && month ? trendRows(await allMetrics(), month) : [];
    const can = screenPermissions(ctx, def);
    const editId = positiveIdParam(url.searchParams.get('edit'));
    const editing = editId !== null && can.edit ? await getRecord(ctx, def, editId) : null;
    // Only Vult's rows are edited here.
    if (editing && editing.companyId !== companyId) throw notFound();
    return { company, ...shown, month, trend, editing, can };
  });

export const action = (args: ActionFunctionArgs) =>
  resourceAction(tabs.defOf(args.request.url), args, {
    i18n: requestI18n,
    company: FINANCIAL_SERVICES_COMPANY,
    // The rows are Vult's whatever the form says; another company's row is not found here.
    pinCompany: true,
  });
