// Values shared by the e2e server (scripts/e2e-server.ts), the Playwright config and the specs.
// Plain constants only: the server imports this file under Node's type stripping.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** The owner account the e2e server creates at its first start (OWNER_EMAIL/OWNER_PASSWORD). */
export const OWNER_EMAIL = 'owner@example.com';
export const OWNER_PASSWORD = 'E2e-Owner-Password-1';

/** Fixed secrets, so a test failure can be replayed against the same cookies. */
export const E2E_SESSION_SECRET = 'e2e-session-secret-0123456789abcdef0123456789';
export const E2E_ENCRYPTION_KEY = 'e2e0'.repeat(16);
