// The HTTP server: Remix behind a few request-level guards that must run before any action
// (same-origin check, security headers, health probes), with a graceful stop on SIGTERM.
// remix-serve cannot host these, so we use its express adapter directly.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import compression from 'compression';
import express from 'express';
import type { ServerBuild } from '@remix-run/node';
import { createDatabase, pingDatabase, type DatabaseHandle } from './db/client.ts';
import { startBackgroundCheckpoints } from './db/background-checkpoints.ts';
import { prepareDatabase } from './app/features/system/bootstrap.server.ts';
import { loadConfig, ConfigError, type AppConfig } from './app/platform/config.server.ts';
import { isSameOrigin, securityHeaders } from './app/platform/http/security.ts';
import { newNonce } from './app/platform/http/nonce.ts';
import { PSEUDO_LOCALE_HEADER } from './app/platform/i18n/catalog.server.ts';
import { remixHandler } from './app/platform/http/remix-express.ts';
import { BODY_LIMIT_EXCEEDED, bodyLimit } from './app/platform/http/body-limit.ts';
import { isImportUpload, UPLOAD_FORM_BYTES } from './app/features/imports/upload.server.ts';
import { isMeasured, RequestMetrics } from './app/platform/http/request-metrics.ts';
import { HealthSampler } from './app/platform/http/health-sampler.server.ts';
import { captureServerError } from './app/platform/http/error-capture.server.ts';
import { createJobEngine, jobSenderFactory, type JobEngine } from './app/platform/jobs/engine.ts';
import type { JobSet } from './app/platform/jobs/handler.ts';
import { runHereLocally } from './app/platform/jobs/run-now.ts';
import { createRuntime, type Runtime } from './app/platform/runtime.ts';
import { catalogTranslator } from './app/features/shell/catalog-files.server.ts';
import { appJobs } from './app/features/jobs.ts';
import {
  ensurePrivateDirectory,
  usePrivateFileModes,
  warnAboutWidePermissions,
} from './app/platform/private-files.server.ts';

const root = path.dirname(new URL(import.meta.url).pathname);

export async function createApp(config: AppConfig, handle: DatabaseHandle, build: ServerBuild, runtime: Runtime) {
  const app = express();
  app.disable('x-powered-by');
  // A number of hops, never `true`: with `true` express would take the leftmost X-Forwarded-For
  // entry, which the client writes itself.
  app.set('trust proxy', config.trustProxy);
  app.use(compression());

  // The app's own traffic figures for System Monitoring (answer time until the response is sent).
  const requestMetrics = new RequestMetrics();
  // On PostgreSQL nothing has made DATA_DIR yet on a fresh install (SQLite's file is in it): make
  // it now, private, so the health figures measure the disk the data will live on from the start.
  ensurePrivateDirectory(config.dataDir);
  // Sampled in the background from the first health call on (a request never waits for a sample).
  const health = new HealthSampler(handle.db, config.dataDir);
  app.use((req, res, next) => {
    if (!isMeasured(req.path)) return next();
    const started = performance.now();
    res.on('finish', () => requestMetrics.record(res.statusCode, performance.now() - started));
    next();
  });

  // The pseudo-locale's header (docs/languages.md) reaches the app only where the configuration
  // allows it (tests): everything after this reads the header alone.
  if (!config.pseudoLocale)
    app.use((req, _res, next) => {
      delete req.headers[PSEUDO_LOCALE_HEADER];
      next();
    });

  app.use((req, res, next) => {
    const nonce = newNonce();
    res.locals.nonce = nonce;
    for (const [name, value] of Object.entries(securityHeaders(nonce, req.secure))) res.setHeader(name, value);
    next();
  });

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', uptime: Math.round(process.uptime()) });
  });
  app.get('/readyz', async (req, res) => {
    // Stopping behind a load balancer: out of its rotation before connections are refused.
    if (req.app.locals.draining) {
      res.status(503).json({ status: 'draining', database: handle.dialect });
      return;
    }
    try {
      await pingDatabase(handle.db);
      res.json({ status: 'ready', database: handle.dialect });
    } catch {
      res.status(503).json({ status: 'unavailable', database: handle.dialect });
    }
  });

  // Every state-changing request must come from our own pages (docs/security.md).
  app.use((req, res, next) => {
    if (['GET', 'HEAD', 'OPTIONS'].includes(req.method)) return next();
    const host = req.get('host') ?? '';
    if (isSameOrigin({ origin: req.get('origin'), referer: req.get('referer'), host, protocol: req.protocol }))
      return next();
    if (req.path.startsWith('/api/')) res.status(403).json({ message: 'Forbidden' });
    else res.status(403).type('text/plain').send('Forbidden: cross-origin request');
  });

  // Bodies above MAX_BODY_BYTES answer 413 before they are read.
  app.use(
    bodyLimit((req) =>
      req.method === 'POST' && isImportUpload(req.path)
        ? config.imports.maxBytes + UPLOAD_FORM_BYTES
        : config.maxBodyBytes,
    ),
  );

  app.use(build.publicPath, express.static(path.join(root, 'public/build'), { immutable: true, maxAge: '1y' }));
  // The service worker is checked for a new version at every visit (never served from a cache).
  app.get('/sw.js', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(root, 'public', 'sw.js'), { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
  });
  // The other files of public/ (the favicon). Only requests under one of its entries go through
  // serve-static, which otherwise costs every page and /api call a stat of the path.
  const publicDir = path.join(root, 'public');
  const publicEntries = new Set(fs.readdirSync(publicDir).filter((name) => name !== 'build'));
  const publicFiles = express.static(publicDir, { maxAge: '1h', index: false });
  app.use((req, res, next) => (publicEntries.has(req.path.split('/', 2)[1]) ? publicFiles(req, res, next) : next()));

  app.all(
    '*',
    remixHandler({
      build,
      getLoadContext: (req, res) => ({
        db: handle.db,
        dialect: handle.dialect,
        config,
        runtime,
        nonce: res.locals.nonce as string,
        clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
        secure: req.secure,
        memo: new Map(),
        requestMetrics,
        health,
      }),
    }),
  );

  app.use((err: Error, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (res.locals[BODY_LIMIT_EXCEEDED]) return; // already answered 413
    console.error('[http] unhandled error:', err);
    void captureServerError(handle.db, err, { method: req.method, path: req.path });
    if (res.headersSent) return;
    if (req.path.startsWith('/api/')) res.status(500).json({ message: 'Internal server error' });
    else res.status(500).type('text/plain').send('Internal server error');
  });
  return app;
}

/**
 * A web process's runtime, built once and handed to every request and job: it sends through a
 * send-only engine opened on the first enqueue (PostgreSQL) unless it hosts one (embedded), and
 * reaching no engine it runs the jobs that allow it itself.
 */
export function webRuntime(config: AppConfig, handle: DatabaseHandle, jobSet: JobSet = appJobs(config)) {
  const runtime = createRuntime(undefined, { translator: catalogTranslator() });
  runtime.jobs.sendVia(jobSenderFactory(config, handle.db, jobSet));
  runtime.jobs.runHereWithoutEngine(runHereLocally(jobSet.jobs, { db: handle.db, settings: config, runtime }));
  return runtime;
}

export async function startServer(given?: AppConfig) {
  // Before anything is written (the configuration may generate DATA_DIR/secrets.json).
  usePrivateFileModes();
  const config = given ?? loadConfig();
  const handle = createDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const checkpoints = handle.sqlite ? startBackgroundCheckpoints(handle.sqlite.database, handle.sqlite.file) : null;
  const closeDatabase = handle.close;
  handle.close = async () => {
    await checkpoints?.stop();
    await closeDatabase();
  };
  const { owner, seeded } = await prepareDatabase(handle, { seedDemo: config.seedDemo, owner: config.owner });
  if (seeded.length) console.log(`[db] seeded an empty database: ${seeded.join(', ')}`);
  if (owner.created) {
    if (owner.temporaryPassword) {
      console.log('');
      console.log('  First start: an owner account was created. Sign in with:');
      console.log(`    e-mail:             ${owner.email}`);
      console.log(`    temporary password: ${owner.temporaryPassword}`);
      console.log('  (shown once; you will be asked to choose a new password)');
      console.log('');
    } else {
      console.log(`[auth] owner account created for ${owner.email}`);
    }
  }

  // Embedded mode: the web process hosts the job engine (pg-boss on PGlite) and runs the
  // handlers (docs/jobs.md). On PostgreSQL, `npm run worker` processes do.
  const appJobSet = appJobs(config);
  const runtime = webRuntime(config, handle, appJobSet);
  let jobs: JobEngine | null = null;
  if (handle.dialect === 'sqlite' && config.jobs.embedded) {
    const engine = createJobEngine(config, handle.db, 'embedded', appJobSet, { runtime });
    // Hosted before it starts: handlers that run at once enqueue their follow-ups on it.
    runtime.jobs.host(engine);
    try {
      await engine.start();
      jobs = engine;
    } catch (error) {
      runtime.jobs.host(null);
      // The app still serves; background jobs are off until the next start.
      console.error('[jobs] the embedded job engine failed to start; background jobs are off:', error);
      await engine.stop({ graceful: false }).catch(() => {});
    }
  }

  // After the embedded queue has made its own files private.
  warnAboutWidePermissions([config.dataDir, config.backupDir]);

  const build = (await import(pathToFileURL(path.join(root, 'build/index.js')).href)) as ServerBuild;
  const app = await createApp(config, handle, build, runtime);
  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(`[http] Group Finance Hub on http://localhost:${port} (${handle.dialect}: ${handle.location})`);
  });

  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(
      error.code === 'EADDRINUSE' ? `[http] port ${config.port} is already in use (set PORT to another port)` : error,
    );
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // A deploy's SIGTERM, not a Ctrl-C: keep serving while `/readyz` tells the balancer to stop
    // sending requests, so none reaches a process that no longer accepts connections.
    const drainSeconds = signal === 'SIGTERM' ? config.shutdownDrainSeconds : 0;
    if (drainSeconds > 0) {
      app.locals.draining = true;
      console.log(`[http] ${signal}: /readyz answers 503 for ${drainSeconds} s, then open requests finish`);
    }
    setTimeout(() => closeServer(signal), drainSeconds * 1000);
  };
  const closeServer = (signal: string) => {
    console.log(`[http] ${signal}: finishing open requests`);
    server.close(async () => {
      // Running jobs finish (within the deadline below); no new one starts. On PostgreSQL this
      // closes the send-only engine, if a request opened one.
      await runtime.jobs
        .stop({ timeout: 8_000 })
        .catch((error: unknown) => console.error('[jobs] stop failed:', error));
      await handle.close();
      process.exit(0);
    });
    server.closeIdleConnections();
    // Requests that hang must not keep a deploy waiting for ever.
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  return { server, handle, jobs, runtime };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  startServer().catch((error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
