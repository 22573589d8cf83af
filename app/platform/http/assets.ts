// Where the browser's built files are served (public/build): remix.config.js's publicPath, which
// the server reads from the build. Static files are not the app's traffic (request-metrics.ts).
export const ASSETS_URL = '/b/';
