/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Tests, and type-level tests (*.test-d.ts, checked by tsc only), are never routes.
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}', '**/*.test-d.ts'],
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
  tailwind: true,
  postcss: false,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
};
