import { redirect } from '@remix-run/node';
import { allow, type RouteAccess } from '../platform/screen/route-access.ts';

export const access: RouteAccess = [{ methods: { GET: allow.redirect } }];

// The old app sent people to /dashboard after signing in; the dashboard lives at "/".
export const loader = () => redirect('/');
