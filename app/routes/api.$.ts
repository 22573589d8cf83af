import { apiJson } from '../platform/api/api.server.ts';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';

export const access: RouteAccess = [
  { methods: { GET: allow.none, POST: allow.none, PUT: allow.none, PATCH: allow.none, DELETE: allow.none } },
];

// Unknown /api paths answer JSON, never the HTML 404 page.
const notFound = () => apiJson({ message: 'Resource not found' }, { status: 404 });
export const loader = notFound;
export const action = notFound;
