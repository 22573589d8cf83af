// The real app server for the bench, in its own process (the orchestrator, bench/list-page.ts,
// spawns it): server.ts's startServer with NODE_ENV=production on the bench's data directory
// (or DATABASE_URL), reference data only, the bench owner and fixed secrets.
//   PORT=… DATA_DIR=… [DATABASE_URL=…] npx node bench/app-server.ts
import { BENCH_ENCRYPTION_KEY, BENCH_OWNER_EMAIL, BENCH_OWNER_PASSWORD, BENCH_SESSION_SECRET, DEFAULT_DATA_DIR } from './constants.ts';

// Before the app (and React) load: the production builds, as in real use.
process.env.NODE_ENV = 'production';

const { startServer } = await import('../server.ts');
const { loadConfig } = await import('../app/services/config.server.ts');

const config = loadConfig({
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: process.env.PORT ?? '3300',
  DATA_DIR: process.env.DATA_DIR ?? DEFAULT_DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  SEED_DEMO: '0',
  OWNER_EMAIL: BENCH_OWNER_EMAIL,
  OWNER_PASSWORD: BENCH_OWNER_PASSWORD,
  SESSION_SECRET: BENCH_SESSION_SECRET,
  ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
});

try {
  await startServer(config);
} catch (error) {
  console.error(error);
  process.exit(1);
}
