// The real app server for the bench, in its own process (the orchestrator, bench/list-page.ts,
// spawns it): server.ts's startServer with NODE_ENV=production on the bench's data directory
// (or DATABASE_URL), reference data only, the bench owner and fixed secrets.
//   PORT=… DATA_DIR=… [DATABASE_URL=…] npx node bench/app-server.ts
import { benchEnv } from './constants.ts';

// Before the app (and React) load: the production builds, as in real use.
process.env.NODE_ENV = 'production';

const { startServer } = await import('../server.ts');
const { loadConfig } = await import('../app/platform/config.server.ts');

const config = loadConfig(benchEnv());

try {
  await startServer(config);
} catch (error) {
  console.error(error);
  process.exit(1);
}
