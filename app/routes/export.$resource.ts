// Export Data: the current filtered list of a declared resource as a streamed CSV download.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { exportResourceCsv } from '../http/resource-export.server.ts';
import { allow, type RouteAccess } from '../http/route-access.ts';
import { RESOURCE_LIST } from '../resources/index.ts';

export const access: RouteAccess = RESOURCE_LIST.map((def) => ({
  params: { resource: def.key },
  methods: { GET: allow.to(def.area) },
  companyScoped: def.company !== 'none',
  resource: def.key,
}));

export const loader = (args: LoaderFunctionArgs) => exportResourceCsv(args);
