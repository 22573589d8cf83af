/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Tests, and type-level tests (*.test-d.ts, checked by tsc only), are never routes.
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}', '**/*.test-d.ts'],
  serverModuleFormat: 'esm',
  // The URL of the browser's files (public/build). Short, because a page names its chunks some
  // hundred times (modulepreload links, the route manifest); app/platform/http/assets.ts says the same.
  publicPath: '/b/',
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
