// The /system-monitoring route's server half (owners and admins): live health with 24-hour
// sparklines, Error Tracking with Resolve (notes required), Recovery Actions and System Metrics.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  MONITORING_PAGE_SIZE,
  MONITORING_TABS,
  type MonitoringData,
  type MonitoringTab,
} from './system-monitoring-screen.tsx';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { intent } from '../../platform/screen/intent.ts';
import { clampedPage, listUrl, loadScreen, screenAction, succeed, tabOf } from '../../platform/screen/screen.server.ts';
import { healthOptions } from './health-options.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';
import { lastPage } from '../../platform/lib/paging.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import {
  listRecoveryActions,
  listSystemErrors,
  ResolveForm,
  resolveSystemError,
  systemHealth,
} from './system-monitoring.server.ts';

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, context }) => {
    const tab = tabOf(
      url,
      MONITORING_TABS.map((t) => t.key),
    ) as MonitoringTab;
    const requested = positiveIdParam(url.searchParams.get('page')) ?? 1;
    const paged = <T extends { total: number }>(load: (offset: number) => Promise<T>) =>
      clampedPage(
        requested,
        (p) => load((p - 1) * MONITORING_PAGE_SIZE),
        (r) => lastPage(r.total, MONITORING_PAGE_SIZE),
      ).then(({ page, result }) => ({ ...result, page, pageCount: lastPage(result.total, MONITORING_PAGE_SIZE) }));
    const resolveId = positiveIdParam(url.searchParams.get('resolve'));
    const [health, errors, recovery] = await Promise.all([
      systemHealth(ctx, healthOptions(context)),
      tab === 'errors' ? paged((offset) => listSystemErrors(ctx, { limit: MONITORING_PAGE_SIZE, offset })) : null,
      tab === 'recovery' ? paged((offset) => listRecoveryActions(ctx, { limit: MONITORING_PAGE_SIZE, offset })) : null,
    ]);
    let resolving = errors?.rows.find((e) => e.id === resolveId && !e.isResolved) ?? null;
    if (resolveId !== null && !resolving) {
      // Not on this page: looked up among the open errors (a resolved or unknown one opens nothing).
      resolving =
        (await listSystemErrors(ctx, { status: 'open', limit: 1000 })).rows.find((e) => e.id === resolveId) ?? null;
    }
    const data: MonitoringData = { tab, health, errors, recovery, resolving };
    return json(data);
  });

const intents = {
  resolve: intent({
    allow: allow.to('installation'),
    schema: ResolveForm,
    invalid: msg('Failed to resolve error'),
    failed: msg('Failed to resolve error'),
    run: async ({ id, resolution }, screen) => {
      await resolveSystemError(screen.ctx, id, { resolution });
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(
        screen,
        { type: 'success', title: t('Success'), description: t('Error marked as resolved') },
        { to: listUrl(screen.url) },
      );
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) => screenAction(args, intents, { i18n: requestI18n });
