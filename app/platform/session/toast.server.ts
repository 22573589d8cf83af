// Flash toasts: one message in a short-lived signed cookie, shown on the next page (with or
// without JavaScript) and cleared by the page that shows it.
import { redirect, type AppLoadContext, type Cookie } from '@remix-run/node';
import { createCookie } from './cookie.server.ts';
import type { Toast } from '../lib/toast.ts';

const cookies = new WeakMap<object, Cookie>();
function toastCookie(context: AppLoadContext): Cookie {
  let cookie = cookies.get(context.config);
  if (!cookie) {
    cookie = createCookie('__toast', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: 120,
      secrets: [context.config.sessionSecret],
    });
    cookies.set(context.config, cookie);
  }
  return cookie;
}

export function toastHeader(context: AppLoadContext, toast: Toast): Promise<string> {
  return toastCookie(context).serialize(toast, { secure: context.secure });
}

/** The pending toast, and the header that clears it once shown. */
export async function takeToast(
  request: Request,
  context: AppLoadContext,
): Promise<{ toast: Toast | null; clear: string | null }> {
  const value = await toastCookie(context).parse(request.headers.get('Cookie'));
  if (!value || typeof value !== 'object' || typeof value.title !== 'string') return { toast: null, clear: null };
  return {
    toast: value as Toast,
    clear: await toastCookie(context).serialize('', { secure: context.secure, maxAge: 0 }),
  };
}

export async function redirectWithToast(
  context: AppLoadContext,
  url: string,
  toast: Toast,
  headers: HeadersInit = {},
): Promise<Response> {
  const h = new Headers(headers);
  h.append('Set-Cookie', await toastHeader(context, toast));
  return redirect(url, { headers: h });
}
