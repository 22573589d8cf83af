// GET /i18n/<file>: a message file (docs/languages.md). Public, and named by its content's hash,
// so a browser keeps it for good.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { catalogs } from './catalogs.server.ts';

export function messageFileLoader({ params }: LoaderFunctionArgs) {
  const script = catalogs.messageFileScript(params.file ?? '');
  if (script === undefined) return new Response('Not Found', { status: 404 });
  return new Response(script, {
    headers: {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=31536000, immutable',
    },
  });
}

/** One file's name, for the route's access rule (the security suites call the route with it). */
export const SOME_MESSAGE_FILE = catalogs.messageFiles('en', ['shell'])[0]!.src.split('/').pop()!;
