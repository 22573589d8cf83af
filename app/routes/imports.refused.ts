// /imports/refused?id=12: the rows an import refused, with their line and reasons, as CSV.
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';

export const access: RouteAccess = [{ methods: { GET: allow.signedIn } }];

export { refusedLoader as loader } from '../features/imports/import-route.server.ts';
