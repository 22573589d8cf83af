// npm start: build if needed, then migrate, seed an empty database and serve (server.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.env.NODE_ENV ??= 'production';
buildIfStale(root);
const { startServer } = await import('../server.ts');
const { ConfigError } = await import('../app/platform/config.server.ts');
try {
  await startServer();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
