// Settings → System → Download report: a JSON summary as a file download.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { requireAuth, serviceContext } from '../http/session.server.ts';
import { buildSettingsReport } from '../services/system-info.server.ts';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireAuth(request, context);
  const report = await buildSettingsReport(serviceContext(request, context, auth));
  const day = report.generatedAt.slice(0, 10);
  return new Response(`${JSON.stringify(report, null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="finhub-report-${day}.json"`,
      'Cache-Control': 'no-store',
    },
  });
}
