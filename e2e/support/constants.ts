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

/**
 * Debian's browsers. The headless shell (package chromium-headless-shell: Chromium's old headless
 * mode, without the full browser's UI layers) renders the same Blink pages for less CPU than the
 * full browser, so the suite runs in it; only what the shell lacks (the notification
 * permission a service worker needs to show a push) runs in the full browser.
 */
export const CHROMIUM_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM_FULL = '/usr/bin/chromium';
/** Chromium's switches for this suite: no sandbox (root in CI), no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
