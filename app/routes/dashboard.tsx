import { redirect } from '@remix-run/node';

// The old app sent people to /dashboard after signing in; the dashboard lives at "/".
export const loader = () => redirect('/');
