// The /api-integrations route's server half: six tabs in the URL (?tab=, default
// recommendations). API Sources and Endpoints are the declared resources' lists with their add
// and edit panels (dialogs with JavaScript) and delete; Endpoints adds 'Sync Now' per row;
// Credentials is an add form only; Recommendations, Performance and Sync Logs are computed
// from the sync logs, endpoints and audit trail, their texts sent as messages that the screen
// says in its reader's language (the /api answers them in English). Everything works without
// JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { INTEGRATION_TABS, type IntegrationsData, type IntegrationTab } from './api-integrations-screen.tsx';
import { resourceAction, resourceLoader } from '../../platform/resources/resource-screen.server.ts';
import { allow, resourceScreenAccess } from '../../platform/screen/route-access.ts';
import { intent } from '../../platform/screen/intent.ts';
import { loadScreen, succeed, tabOf } from '../../platform/screen/screen.server.ts';
import { offsetParam } from '../../platform/lib/paging.ts';
import { positiveIdParam } from '../../platform/lib/query.ts';
import { apiIntegrationEndpoints, apiIntegrationSources } from './resources.ts';
import { activityTimeline, findPerformance, findRecommendations } from './integration-analysis.server.ts';
import { addCredential, CredentialForm, credentialSourceChoices } from './integration-credentials.server.ts';
import { listSyncLogs, requestSync, SyncForm } from './integration-sync.server.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';

const KEYS = INTEGRATION_TABS.map((t) => t.key);
const LOGS_PAGE = 25;
/** Recommendations per page ('Show more' for the next): each is a card of advice. */
const RECOMMENDATIONS_PAGE = 10;
const defOf = (tab: IntegrationTab) => (tab === 'endpoints' ? apiIntegrationEndpoints : apiIntegrationSources);

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async (screen) => {
    const { ctx, url } = screen;
    const tab = tabOf(url, KEYS) as IntegrationTab;
    const base: IntegrationsData = {
      tab,
      recommendations: null,
      performance: null,
      timeline: null,
      logs: null,
      sources: null,
    };
    if (tab === 'sources' || tab === 'endpoints') {
      const list = await resourceLoader(defOf(tab), args);
      return json({ ...list, ...base });
    }
    if (tab === 'recommendations') {
      const all = await findRecommendations(ctx);
      // Past the end: the last page.
      const lastOffset = Math.max(0, Math.floor((all.length - 1) / RECOMMENDATIONS_PAGE) * RECOMMENDATIONS_PAGE);
      const offset = Math.min(offsetParam(url, RECOMMENDATIONS_PAGE), lastOffset);
      return json({
        ...base,
        recommendations: {
          items: all.slice(offset, offset + RECOMMENDATIONS_PAGE),
          page: { offset, size: RECOMMENDATIONS_PAGE, total: all.length },
        },
      });
    }
    if (tab === 'performance') {
      const [performance, timeline] = await Promise.all([findPerformance(ctx), activityTimeline(ctx)]);
      return json({ ...base, performance, timeline });
    }
    if (tab === 'credentials') {
      return json({ ...base, sources: await credentialSourceChoices(ctx) });
    }
    const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get('page')) || 1));
    const { locale } = requestI18n(screen.request, screen.auth).preferences;
    const logs = await listSyncLogs(ctx, { limit: LOGS_PAGE, offset: (page - 1) * LOGS_PAGE }, locale);
    return json({
      ...base,
      logs: { rows: logs.rows, total: logs.total, page, pageCount: Math.max(1, Math.ceil(logs.total / LOGS_PAGE)) },
    });
  });

// The screen's own intents besides create, update and delete. A source or an endpoint serves
// every company's books: a user limited to one company only reads them.
const intents = {
  sync: intent({
    allow: allow.to('integrations', 'create', { groupWide: true }),
    schema: SyncForm,
    failed: 'Error starting sync',
    prefix: true,
    run: async ({ id }, screen) => {
      await requestSync(screen.ctx, screen.context.config.integrations, id);
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(
        screen,
        { type: 'success', title: t('Success'), description: t('Sync started successfully') },
        { to: '/api-integrations?tab=endpoints' },
      );
    },
  }),
  credential: intent({
    allow: allow.to('integrations', 'create', { groupWide: true }),
    schema: CredentialForm,
    invalid: msg('Error creating API credential'),
    failed: 'Error creating API credential',
    prefix: true,
    hideFields: ['credentialValue'],
    run: async (value, screen) => {
      await addCredential(screen.ctx, screen.context.config.integrations, {
        ...value,
        sourceId: positiveIdParam(value.sourceId ?? '') ?? value.sourceId,
      });
      const { t } = requestI18n(screen.request, screen.auth);
      return succeed(
        screen,
        { type: 'success', title: t('Success'), description: t('API credential created successfully') },
        { to: '/api-integrations?tab=credentials' },
      );
    },
  }),
};

// Sources and endpoints share the area and the group-wide rule: one declaration's rules stand for both tabs.
export const access = resourceScreenAccess(apiIntegrationSources, intents);

export const action = (args: ActionFunctionArgs) =>
  resourceAction(defOf(tabOf(new URL(args.request.url), KEYS) as IntegrationTab), args, { intents, i18n: requestI18n });
