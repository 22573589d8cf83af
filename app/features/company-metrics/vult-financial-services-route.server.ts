// The /vult-financial-services route's server half: the company named 'Vult'. Overview: a month's
// metrics (?year=&month=, else the latest), the 12-month chart and the record counts. The other
// tabs: the five most recent rows of their table; the tab of the posted URL picks the table, and
// the company is always Vult.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { resourceAction, screenPermissions } from '../../platform/resources/resource-screen.server.ts';
import { resourceScreenAccess } from '../../platform/screen/route-access.ts';
import { loadScreen } from '../../platform/screen/screen.server.ts';
import { FINANCIAL_SERVICES_COMPANY } from '../../platform/screen/navigation.ts';
import { findScreenCompany } from '../../platform/companies.server.ts';
import { listRecords, type ApiRow } from '../../platform/resources/resources.server.ts';
import { monthOf, MONTHS_IN_RANGE, requestedMonth, sameMonth, trendRows } from './data.ts';
import { vultCardTypes, vultSubscriberLevels, vultSubscriberMetrics } from './vult.ts';
import { FINANCIAL_SERVICES_TABS as tabs } from './vult-financial-services-screen.tsx';
import { requestI18n } from '../shell/index.server.ts';

const RECENT = 5;
const noRows: ApiRow[] = [];

export const access = resourceScreenAccess(vultSubscriberMetrics);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url }) => {
    const tab = tabs.tabOf(url);
    const company = await findScreenCompany(ctx, FINANCIAL_SERVICES_COMPANY);
    if (!company) return { company: null, tab };
    const companyId = company.id;
    const [metrics, levels, cards] = await Promise.all([
      // Every month's row (at most one per month): the latest, the chosen month and the chart's.
      listRecords(ctx, vultSubscriberMetrics, { limit: MONTHS_IN_RANGE, offset: 0, companyId }),
      listRecords(ctx, vultSubscriberLevels, { limit: RECENT, offset: 0, companyId }),
      listRecords(ctx, vultCardTypes, { limit: RECENT, offset: 0, companyId }),
    ]);
    const metricRows = metrics.rows;
    const requested = requestedMonth(url.searchParams);
    const month = requested ?? monthOf(metricRows[0]);
    return {
      company,
      tab,
      month,
      requested: requested !== null,
      shown: (month && metricRows.find((r) => sameMonth(r, month))) || null,
      trend: month ? trendRows(metricRows, month) : [],
      totals: { metrics: metrics.total, levels: levels.total, cards: cards.total },
      recent:
        tab === 'overview'
          ? noRows
          : { metrics: metrics.rows.slice(0, RECENT), levels: levels.rows, cards: cards.rows }[tab],
      can: screenPermissions(ctx, tabs.defOf(url)),
    };
  });

export const action = (args: ActionFunctionArgs) =>
  resourceAction(tabs.defOf(args.request.url), args, {
    i18n: requestI18n,
    company: FINANCIAL_SERVICES_COMPANY,
    // The rows are Vult's whatever the form says; another company's row is not found here.
    pinCompany: true,
  });
