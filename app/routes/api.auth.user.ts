// Same answer as /api/auth/me (the old client used both).
export { loader, action, access } from './api.auth.me.ts';
