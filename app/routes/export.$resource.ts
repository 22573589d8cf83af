// Export Data: the current filtered list of a declared resource as a streamed CSV download.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { exportResourceCsv } from '../platform/api/resource-export.server.ts';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { RESOURCE_LIST } from '../features/resources.ts';

export const access: RouteAccess = RESOURCE_LIST.map((def) => ({
  params: { resource: def.key },
  methods: { GET: allow.to(def.area) },
  companyScoped: def.company !== 'none',
  resource: def.key,
}));

export const loader = (args: LoaderFunctionArgs) => exportResourceCsv(args, RESOURCE_LIST);
