// The screen kit: what every signed-in screen's loader and action is made of (docs/screens.md).
// - openScreen / loadScreen: the signed-in user allowed into this screen of the route table,
//   a service context, and domain errors thrown while loading turned into the error page.
// - screenAction: reads the form once, picks the `intent`, checks the rule it declares
//   (`allow`, intent.ts), validates it with conform + zod and runs it. One failure convention
//   for every form: conform's reply with field errors and a form error, under the error's
//   status. Success is the caller's: usually `succeed` (a redirect with a flash toast), or an
//   answer that shows something once (a temporary password, a confirmation step).
// - URL state: the list URL without the forms' parameters, a tab from the URL, page clamping.
// - Rate limits: every action of a signed-in user, every download and every analysis a screen
//   computes counts against the same per-user limits as /api (rate-limit.server.ts); plain page
//   views do not. Over them: the 429 page, with Retry-After.
import { parseWithZod } from '@conform-to/zod/v4';
import type { SubmissionResult } from '@conform-to/react';
import {
  json,
  type ActionFunctionArgs,
  type AppLoadContext,
  type HeadersFunction,
  type LoaderFunctionArgs,
} from '@remix-run/node';
import { z } from 'zod';
import type { Toast } from '../lib/toast.ts';
import { msg, type Translate } from '../i18n/messages.ts';
import type { Locale } from '../i18n/locales.ts';
import { asReader, ENGLISH, readerWords, type Reader } from '../i18n/refusal-words.ts';
import { PLAIN_ENGLISH } from '../i18n/english-icu.server.ts';
import { listHref } from '../lib/url.ts';
import { DEFAULT_MESSAGES, forbidden, isDomainError, notFound, type DomainError } from '../errors.ts';
import { countUserRequest, noteRetryAfter } from '../http/rate-limit.server.ts';
import { positiveIdParam } from '../lib/query.ts';
import { readFormData } from '../http/form.server.ts';
import { requireAuth, requireScreen, serviceContext, type Auth } from '../session/session.server.ts';
import { DEFAULT_SETTINGS } from '../session/user-settings-row.ts';
import { preferencesOf } from '../i18n/preferences.ts';
import { redirectWithToast } from '../session/toast.server.ts';
import type { Intent, PublicPage, Screen } from './intent.ts';
import { passes } from './route-access.ts';

export type { Intent, PublicPage, Reply, Screen } from './intent.ts';

type ScreenArgs = LoaderFunctionArgs | ActionFunctionArgs;

function screenOf({ request, context }: ScreenArgs, auth: Auth): Screen {
  return {
    request,
    context,
    url: new URL(request.url),
    auth,
    user: auth.user,
    ctx: serviceContext(request, context, auth),
  };
}

/** The signed-in user allowed into the route-table screen of this URL (else sign-in, 403 or 404). */
export async function openScreen(args: ScreenArgs): Promise<Screen> {
  return screenOf(args, await requireScreen(args.request, args.context));
}

/** A domain error met while loading becomes the screen's error page (404, 403, 400, 429). */
function toErrorResponse(error: unknown, screen: Pick<Screen, 'context' | 'auth'>): unknown {
  if (!isDomainError(error)) return error;
  if (error.kind === 'rateLimited') return tooManyRequests(screen, error, signedInReader(screen));
  return new Response(error.message, { status: error.status });
}

/**
 * A route's `headers` when its actions may be throttled: Remix keeps only Set-Cookie from an
 * action on a full page, so Retry-After is passed on too.
 */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get('Retry-After');
  if (retryAfter) headers.set('Retry-After', retryAfter);
  return headers;
};

/**
 * The signed-in reader, for the words of a page a loader answers without its route (a 429): their
 * language where this process has the catalogs, else plain English.
 */
function signedInReader({ context, auth }: Pick<Screen, 'context' | 'auth'>): Reader {
  const { locale } = preferencesOf(auth.settings ?? DEFAULT_SETTINGS);
  const translator = context.runtime?.translator;
  return locale === 'en' || !translator ? PLAIN_ENGLISH : { t: translator(locale), locale };
}

/** The words of the 429 page after the per-user limits. */
export function tooManyRequestsText(retryAfter: number | undefined, reader: Reader = PLAIN_ENGLISH): string {
  return retryAfter
    ? reader.t(
        msg(
          '{seconds, plural, one {Too many requests. You have sent more requests than allowed in a short time; try again in # second.} other {Too many requests. You have sent more requests than allowed in a short time; try again in # seconds.}}',
        ),
        { seconds: retryAfter },
      )
    : reader.t(
        msg('Too many requests. You have sent more requests than allowed in a short time; try again in a moment.'),
      );
}

/**
 * The 429 page (thrown by a loader or action): the error's own words when it has some (an
 * analysis already running), else the limiter's; Retry-After on the response.
 */
export function tooManyRequests(
  screen: { context: AppLoadContext },
  error: DomainError,
  reader: Reader = PLAIN_ENGLISH,
): Response {
  noteRetryAfter(screen.context, error.retryAfter);
  const text =
    error.message === DEFAULT_MESSAGES.rateLimited
      ? tooManyRequestsText(error.retryAfter, reader)
      : readerWords(error, error.message, reader);
  return new Response(text, {
    status: 429,
    headers: error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : {},
  });
}

/**
 * Counts this screen request (an action, a download, an analysis) against the user's limits,
 * shared with /api; over them it throws the 429 page.
 */
export async function countScreenRequest(
  screen: Pick<Screen, 'context' | 'user' | 'auth'>,
  reader: Reader = signedInReader(screen),
): Promise<void> {
  try {
    await countUserRequest(screen.context, screen.user.id);
  } catch (error) {
    if (isDomainError(error) && error.kind === 'rateLimited') throw tooManyRequests(screen, error, reader);
    throw error;
  }
}

/** A screen's loader: its body runs for the signed-in, allowed user. */
export async function loadScreen<T>(args: LoaderFunctionArgs, body: (screen: Screen) => Promise<T>): Promise<T> {
  const screen = await openScreen(args);
  try {
    return await body(screen);
  } catch (error) {
    throw toErrorResponse(error, screen);
  }
}

/**
 * A download outside the route table (a CSV export, a report): any signed-in user gets this
 * far, the services it calls decide the rest, and their refusals are the same error responses.
 */
export async function loadDownload(
  args: LoaderFunctionArgs,
  body: (screen: Screen) => Promise<Response>,
): Promise<Response> {
  const screen = screenOf(args, await requireAuth(args.request, args.context));
  await countScreenRequest(screen);
  try {
    return await body(screen);
  } catch (error) {
    throw toErrorResponse(error, screen);
  }
}

// ---------------------------------------------------------------------------------------------
// Actions

/** What a failed action answers, for the form of its intent (conform's lastResult). */
export interface ActionFailure {
  intent: string;
  result: SubmissionResult<string[]>;
}

const NOTHING = z.object({});

/** The text of a refusal without field errors (see Intent.failed), in the reader's words. */
function failureText(error: DomainError, options: Pick<Intent, 'failed' | 'prefix'>, reader: Reader): string {
  const text = readerWords(error, error.message, reader);
  if (!options.failed) return text;
  if (options.prefix) return `${options.failed}: ${text}`;
  return Object.values(DEFAULT_MESSAGES).includes(error.message) ? options.failed : text;
}

/**
 * The language of whoever posts: the shell's requestI18n, which app/platform cannot import (the
 * route passes it). Without it a screen's refusals are English.
 */
export type ScreenI18n = (request: Request, auth: Auth | null) => { t: Translate; preferences: { locale: Locale } };

function readerOf(i18n: ScreenI18n | undefined, request: Request, page: unknown): Reader {
  if (!i18n) return ENGLISH;
  const auth = page && typeof page === 'object' && 'auth' in page ? (page as Screen).auth : null;
  return asReader(i18n(request, auth));
}

interface ActionOptions<Page> {
  /** The intent of a form that posts none. */
  fallback?: string;
  /** Who may post (default: the signed-in user allowed into this screen). */
  open?: (args: ActionFunctionArgs) => Promise<Page>;
  /** Leave the request's body unread for a later reader (remix-auth reads it again). */
  keepBody?: boolean;
  /** Reads the form another way (an upload streamed to a file instead of held in memory). */
  readForm?(request: Request, page: Page): Promise<FormData>;
  /** The poster's language, for the refusals the page shows. */
  i18n?: ScreenI18n;
}

/**
 * A screen's action: the form's `intent` (or `fallback` when the form has none) picks the
 * handler. An unknown intent is a 400, one the user may not post a 403; a domain error is the
 * failure reply under its status.
 */
export async function screenAction(
  args: ActionFunctionArgs,
  intents: Record<string, Intent>,
  options?: ActionOptions<Screen>,
): Promise<Response>;
export async function screenAction<Page>(
  args: ActionFunctionArgs,
  intents: Record<string, Intent<Page>>,
  options: ActionOptions<Page> & { open: (args: ActionFunctionArgs) => Promise<Page> },
): Promise<Response>;
export async function screenAction(
  args: ActionFunctionArgs,
  intents: Record<string, Intent<unknown>>,
  options: ActionOptions<unknown> = {},
): Promise<Response> {
  const page = await (options.open ?? openScreen)(args);
  const reader = readerOf(options.i18n, args.request, page);
  // Signed-in pages only: the login page has its own throttle.
  if (page && typeof page === 'object' && 'user' in page) await countScreenRequest(page as Screen, reader);
  const form = options.readForm
    ? await options.readForm(args.request, page)
    : await readFormData(options.keepBody ? args.request.clone() : args.request);
  const name = String(form.get('intent') ?? '') || options.fallback || '';
  const handler = Object.hasOwn(intents, name) ? intents[name] : undefined;
  const submission = parseWithZod(form, { schema: handler?.schema ?? NOTHING });
  const hideFields = handler?.hideFields;
  const failure = (
    status: number,
    replyOptions: { fieldErrors?: Record<string, string[]>; formErrors?: string[] },
    headers?: HeadersInit,
  ) =>
    json<ActionFailure>(
      { intent: name, result: submission.reply({ hideFields, ...replyOptions }) },
      { status, headers },
    );
  if (!handler) return failure(400, { formErrors: [reader.t(msg('Unknown action'))] });
  // The intent's rule first: a refused user learns nothing from validation. They opened the
  // screen, so a refusal is a 403 (refusalStatus's 404 is for what they cannot open at all).
  if (!mayPost(handler.allow, page, args.params)) {
    const refusal = forbidden(handler.allow.kind === 'self' ? handler.allow.refusal : undefined);
    return json<ActionFailure>(
      {
        intent: name,
        result: parseWithZod(form, { schema: NOTHING }).reply({
          hideFields,
          formErrors: [failureText(refusal, handler, reader)],
        }),
      },
      { status: 403 },
    );
  }
  // A row id in any other spelling than plain digits names no row, whichever intent carries it
  // (a create has no row yet and ignores the field).
  const rowId = form.get('id');
  if (name !== 'create' && typeof rowId === 'string' && positiveIdParam(rowId) === null) {
    return failure(404, { formErrors: [failureText(notFound(), handler, reader)] });
  }
  if (submission.status !== 'success') return failure(400, { formErrors: handler.invalid ? [handler.invalid] : [] });
  try {
    return await handler.run(submission.value as never, page, form, (replyOptions) =>
      submission.reply({ hideFields, ...replyOptions }),
    );
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const fieldErrors: Record<string, string[]> = {};
    for (const e of error.errors ?? []) (fieldErrors[e.field] ??= []).push(readerWords(e, e.message, reader));
    const formErrors = error.errors?.length
      ? handler.invalid
        ? [handler.invalid]
        : []
      : [failureText(error, handler, reader)];
    noteRetryAfter(args.context, error.retryAfter);
    return failure(
      error.status,
      { fieldErrors, formErrors },
      error.retryAfter ? { 'Retry-After': String(error.retryAfter) } : undefined,
    );
  }
}

/** Whether the page's user (a public page has none) passes an intent's rule. */
function mayPost(rule: Intent['allow'], page: unknown, params: ActionFunctionArgs['params']): boolean {
  if (rule.kind === 'public') return true;
  const user = page && typeof page === 'object' && 'user' in page ? (page as Screen).user : null;
  if (!user)
    throw new Error(`screenAction: an intent that needs a signed-in user (${rule.kind}) on a page without one`);
  return passes(rule, user, params) === true;
}

/** The row id a form posts (`id`): plain digits only; anything else names no row (404). */
export function formRowId(form: FormData): number {
  const id = positiveIdParam(String(form.get('id') ?? ''));
  if (id === null) throw notFound();
  return id;
}

/** Success: back to `to` (the list URL without the forms' parameters) with a flash toast. */
export function succeed(
  screen: PublicPage,
  toast: Toast | string,
  options: { to?: string; headers?: HeadersInit } = {},
): Promise<Response> {
  // The title is a message the root's toast translates (the platform has no reader here).
  const message: Toast =
    typeof toast === 'string' ? { type: 'success', title: msg('Success'), description: toast } : toast;
  return redirectWithToast(screen.context, options.to ?? listUrl(screen.url), message, options.headers);
}

/** A confirmation step of another intent than delete, and the row it is about when the message does not name it. */
export interface ConfirmationOptions {
  /** The intent Confirm posts again (default: delete). */
  action?: string;
  /** The step's heading (default: 'Confirm delete'). */
  title?: string;
  /** Which row, in words, for a message that does not say ('Budget Entry: Marketing · Advertising · …'). */
  subject?: string;
}

/**
 * A delete (or another step that cannot be undone) posted without `confirmed=1`: without
 * JavaScript there was no confirm(), so the server answers the confirmation step first; the page
 * renders it with Confirm (the same post, confirmed) and Cancel.
 */
export function confirmationStep(
  form: FormData,
  id: number,
  message: string,
  options: ConfirmationOptions = {},
): Response | null {
  if (form.get('confirmed') === '1') return null;
  const extra = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return json({ intent: 'confirm-delete' as const, id, message, ...extra });
}

// ---------------------------------------------------------------------------------------------
// URL state

/** The list URL without the forms' parameters (?new, ?edit, …): where a successful write returns. */
export function listUrl(url: URL): string {
  return listHref(url.pathname, url.search);
}

/** The tab named by ?tab=, or the first one. */
export function tabOf<T extends string>(url: URL, tabs: readonly T[]): T {
  const requested = url.searchParams.get('tab');
  return tabs.find((tab) => tab === requested) ?? tabs[0];
}

/**
 * Loads page `page`; one beyond the end (a stale link, a deleted row) loads the last page
 * instead. `pagesOf` tells how many pages a result has.
 */
export async function clampedPage<T>(
  page: number,
  load: (page: number) => Promise<T>,
  pagesOf: (result: T) => number,
): Promise<{ page: number; result: T }> {
  const result = await load(page);
  const last = Math.max(1, pagesOf(result));
  if (page <= last) return { page, result };
  return { page: last, result: await load(last) };
}
