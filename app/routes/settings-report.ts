// Settings → System → Download report: a JSON summary as a file download.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { loadDownload } from '../platform/screen/screen.server.ts';
import { buildSettingsReport } from '../features/system/system-info.server.ts';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';

export const access: RouteAccess = [{ methods: { GET: allow.signedIn } }];

export const loader = (args: LoaderFunctionArgs) =>
  loadDownload(args, async ({ ctx, context }) => {
    const report = await buildSettingsReport(ctx, context.config.env);
    const day = report.generatedAt.slice(0, 10);
    return new Response(`${JSON.stringify(report, null, 2)}\n`, {
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="finhub-report-${day}.json"`,
        'Cache-Control': 'no-store',
      },
    });
  });
