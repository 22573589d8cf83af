// The patches of @remix-run/react and react-router-dom (patches/): a page render keeps the React route objects
// (RemixServer) and the static router's data routes per build instead of making them again.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { REMIX_SERVER_CJS, SERVER_MARKER, STATIC_ROUTER_CJS, unpatchedFile } from './patches.ts';

const require = createRequire(import.meta.url);

it('is applied to the CommonJS builds the server loads, and only there', () => {
  const remixMain = require.resolve('@remix-run/react');
  expect(path.join(path.dirname(remixMain), 'server.js')).toBe(REMIX_SERVER_CJS);
  expect(createRequire(REMIX_SERVER_CJS).resolve('react-router-dom/server')).toBe(STATIC_ROUTER_CJS);
  for (const file of [REMIX_SERVER_CJS, STATIC_ROUTER_CJS]) {
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain(SERVER_MARKER);
    expect(unpatchedFile(file)).not.toContain(SERVER_MARKER);
  }
  expect(fs.readFileSync(path.join(path.dirname(REMIX_SERVER_CJS), 'esm', 'server.js'), 'utf8')).not.toContain(
    SERVER_MARKER,
  );
  expect(fs.readFileSync(STATIC_ROUTER_CJS.replace(/\.js$/, '.mjs'), 'utf8')).not.toContain(SERVER_MARKER);
});

it('renders each request with its own matches and data while making the routes once per build', async () => {
  const { RemixServer } = require('@remix-run/react') as typeof import('@remix-run/react');
  const { useLoaderData, Outlet, useLocation } = require('@remix-run/react') as typeof import('@remix-run/react');
  const routesModule = require(path.join(path.dirname(REMIX_SERVER_CJS), 'routes.js')) as {
    createServerRoutes: (...args: unknown[]) => unknown;
  };
  const { createStaticHandler } = require('@remix-run/router') as typeof import('@remix-run/router');

  const Root = () => createElement('main', null, createElement(Outlet));
  const Page = () => createElement('p', null, `${useLocation().pathname}: ${(useLoaderData() as { n: number }).n}`);
  const manifestRoutes = {
    root: { id: 'root', path: '', module: '/root.js', hasLoader: false },
    'routes/a': { id: 'routes/a', parentId: 'root', path: 'a', module: '/a.js', hasLoader: true },
    'routes/b': { id: 'routes/b', parentId: 'root', path: 'b/:id', module: '/b.js', hasLoader: true },
  };
  const modules = { root: { default: Root }, 'routes/a': { default: Page }, 'routes/b': { default: Page } };
  const handler = createStaticHandler([
    {
      id: 'root',
      path: '',
      children: [
        { id: 'routes/a', path: 'a', loader: () => ({ n: 1 }) },
        { id: 'routes/b', path: 'b/:id', loader: ({ params }) => ({ n: Number(params.id) }) },
      ],
    },
  ]);
  const manifest = { entry: { module: '/entry.js', imports: [] }, routes: manifestRoutes, url: '/m.js', version: '1' };
  const future = {
    v3_fetcherPersist: false,
    v3_relativeSplatPath: false,
    v3_throwAbortReason: false,
    v3_routeConfig: false,
    v3_singleFetch: false,
    v3_lazyRouteDiscovery: false,
    unstable_optimizeDeps: false,
  };

  let made = 0;
  const original = routesModule.createServerRoutes;
  routesModule.createServerRoutes = (...args: unknown[]) => ((made += 1), original(...args));
  try {
    const render = async (url: string) => {
      const context = await handler.query(new Request(`http://localhost${url}`));
      if (context instanceof Response) throw context;
      // Each request gets its own route module map, as Remix's server runtime makes one per request.
      const entry = {
        manifest,
        routeModules: { ...modules },
        staticHandlerContext: context,
        future,
        isSpaMode: false,
        serverHandoffString: '{}',
        serializeError: (e: Error) => ({ message: e.message }),
      };
      return renderToString(createElement(RemixServer, { context: entry as never, url: `http://localhost${url}` }));
    };
    expect(await render('/a')).toContain('<p>/a: 1</p>');
    expect(await render('/b/7')).toContain('<p>/b/7: 7</p>');
    expect(await render('/b/9')).toContain('<p>/b/9: 9</p>');
    expect(made).toBe(1);
    // Another build (a new manifest) makes its own routes.
    const other = { ...manifest, routes: { ...manifestRoutes } };
    const context = await handler.query(new Request('http://localhost/a'));
    if (context instanceof Response) throw context;
    renderToString(
      createElement(RemixServer, {
        context: {
          manifest: other,
          routeModules: { ...modules },
          staticHandlerContext: context,
          future,
          isSpaMode: false,
          serverHandoffString: '{}',
        } as never,
        url: 'http://localhost/a',
      }),
    );
    expect(made).toBe(2);
  } finally {
    routesModule.createServerRoutes = original;
  }
});

it('gives the static router the same data routes for the same routes', () => {
  const { createStaticRouter } = require(STATIC_ROUTER_CJS) as typeof import('react-router-dom/server');
  const routes = [{ id: 'root', path: '/', children: [{ id: 'x', path: 'x' }] }];
  const context = {
    basename: '/',
    location: { pathname: '/x', search: '', hash: '', state: null, key: 'default' },
    matches: [],
    loaderData: {},
    actionData: null,
    errors: null,
    statusCode: 200,
    loaderHeaders: {},
    actionHeaders: {},
    activeDeferreds: null,
  };
  const first = createStaticRouter(routes, context as never);
  const second = createStaticRouter(routes, context as never);
  expect(second.routes).toBe(first.routes);
  expect(createStaticRouter([...routes], context as never).routes).not.toBe(first.routes);
  expect(first.routes[0]).toMatchObject({ id: 'root', path: '/', hasErrorBoundary: false });
});
