// Loader and action of a declared resource's list screen: the URL holds search, filter, sort,
// page and the open form (?new=1, ?edit=ID); the action handles create, update and delete
// (with a server-rendered confirmation step when the browser has no JavaScript).
import { parseWithZod } from '@conform-to/zod/v4';
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { recordSchema, type ResourceDef } from '../resources/define.ts';
import { companyFieldOf, referenceChoices } from '../resources/index.ts';
import { can, type Action } from '../lib/permissions.ts';
import { isDomainError } from '../services/errors.ts';
import { lastPage, PAGE_SIZE } from '../lib/paging.ts';
import { positiveIdParam } from '../lib/query.ts';
import { screenListQuery, screenListState } from '../services/list-query.ts';
import { createRecord, deleteRecord, formChoices, getRecord, listRecords, updateRecord, type ListQuery } from '../services/resources.server.ts';
import type { ServiceContext } from '../services/context.ts';
import { readFormData } from './form.server.ts';
import { requireScreen, serviceContext } from './session.server.ts';
import { redirectWithToast } from './toast.server.ts';

interface ScreenOptions {
  /** Limits the screen to one company type (Mobile Metrics, Fintech Metrics). */
  companyType?: 'mobile' | 'fintech';
  /** Extra fixed list conditions (the Expense Categories tab's company). */
  listQuery?: (url: URL) => Partial<ListQuery>;
}

async function screenContext(args: LoaderFunctionArgs | ActionFunctionArgs): Promise<ServiceContext> {
  const auth = await requireScreen(args.request, args.context);
  return serviceContext(args.request, args.context, auth);
}

function allowed(ctx: ServiceContext, def: ResourceDef, action: Action): boolean {
  return (action === 'read' || !def.readOnly) && ctx.actor.kind === 'user' && can(ctx.actor.user, def.area, action);
}

/** Which controls the list screen shows: none that write on a read-only resource. */
export function screenPermissions(ctx: ServiceContext, def: ResourceDef) {
  return { create: allowed(ctx, def, 'create'), edit: allowed(ctx, def, 'edit'), delete: allowed(ctx, def, 'delete') };
}

/** Converts domain errors thrown while loading (404, 403) into the screens' error responses. */
function asResponse(error: unknown): never {
  if (isDomainError(error)) throw new Response(error.message, { status: error.status });
  throw error;
}

export async function resourceLoader(def: ResourceDef, args: LoaderFunctionArgs, options: ScreenOptions = {}) {
  const ctx = await screenContext(args);
  const url = new URL(args.request.url);
  const state = screenListState(def, url.searchParams);
  const fixed: Partial<ListQuery> = { ...(options.companyType ? { companyType: options.companyType } : {}), ...options.listQuery?.(url) };
  try {
    let list = await listRecords(ctx, def, screenListQuery(def, state, fixed));
    let page = state.page;
    const pages = lastPage(list.total);
    if (page > pages) {
      // A page beyond the end (a stale link, a deleted row) shows the last page.
      page = pages;
      list = await listRecords(ctx, def, screenListQuery(def, { ...state, page }, fixed));
    }
    const editId = positiveIdParam(url.searchParams.get('edit'));
    const editing = editId !== null && allowed(ctx, def, 'edit') ? await getRecord(ctx, def, editId) : null;
    const creating = url.searchParams.get('new') === '1' && allowed(ctx, def, 'create');
    const choices = await formChoices(ctx, def, fixed, { form: creating || editing !== null });
    let companyName: string | null = null;
    if (options.companyType) {
      // The company choices are those of the screen's company type (formChoices narrows them).
      const companyField = companyFieldOf(def);
      const companies = companyField ? referenceChoices(companyField, choices) : [];
      // A user limited to a company of another type has no such screen (DESIGN §5: 404).
      if (companies.length === 0 && ctx.actor.kind === 'user' && ctx.actor.user.companyId !== null) {
        throw new Response('Not Found', { status: 404 });
      }
      companyName = companies[0]?.label ?? null;
    }
    return {
      rows: list.rows,
      total: list.total,
      page,
      pageCount: pages,
      pageSize: PAGE_SIZE,
      state: { ...state, page },
      editing,
      creating,
      choices,
      companyName,
      can: screenPermissions(ctx, def),
    };
  } catch (error) {
    asResponse(error);
  }
}

export type ResourceLoaderData = Awaited<ReturnType<typeof resourceLoader>>;

/** The list URL without the form's parameters: where a successful save or delete returns. */
export function listUrl(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  for (const key of ['new', 'edit', 'index']) params.delete(key);
  const search = params.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

/** Empty optional inputs of a full form post clear the stored value. */
function formValues(def: ResourceDef, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const field of def.fields) {
    if (out[field.name] !== undefined) continue;
    if (field.kind === 'text' || field.kind === 'textarea' || (field.kind === 'reference' && field.nullable)) out[field.name] = null;
  }
  return out;
}

export async function resourceAction(def: ResourceDef, args: ActionFunctionArgs, options: ScreenOptions = {}) {
  const ctx = await screenContext(args);
  // A log has no forms: nothing to post.
  if (def.readOnly) throw new Response('Method Not Allowed', { status: 405, headers: { Allow: 'GET' } });
  const url = new URL(args.request.url);
  const form = await readFormData(args.request);
  const intent = String(form.get('intent') ?? '');
  const id = positiveIdParam(String(form.get('id') ?? ''));
  const back = listUrl(url);
  const toast = (description: string) => redirectWithToast(args.context, back, { type: 'success', title: 'Success', description });

  if (intent === 'delete') {
    if (id === null) return json({ intent, formError: def.messages.deleteFailed }, { status: 400 });
    if (form.get('confirmed') !== '1') {
      // No JavaScript, so no confirm(): answer the confirmation step first (DESIGN §8).
      try {
        const record = await getRecord(ctx, def, id);
        const name = String(record.name ?? '');
        return json({ intent: 'confirm-delete' as const, id, message: def.messages.confirmDelete.replace('{name}', name) });
      } catch (error) {
        asResponse(error);
      }
    }
    try {
      await deleteRecord(ctx, def, id);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return json({ intent, formError: `${def.messages.deleteFailed}: ${error.message}` }, { status: error.status });
    }
    return toast(def.messages.deleted);
  }

  if (intent === 'create' || intent === 'update') {
    if (options.companyType) form.set('companyType', options.companyType);
    const submission = parseWithZod(form, { schema: recordSchema(def) });
    const failed = intent === 'create' ? def.messages.createFailed : def.messages.updateFailed;
    if (submission.status !== 'success') {
      return json({ intent, result: submission.reply(), formError: failed }, { status: 400 });
    }
    try {
      const values = formValues(def, submission.value as Record<string, unknown>);
      if (intent === 'create') await createRecord(ctx, def, values);
      else {
        if (id === null) throw new Response('Not Found', { status: 404 });
        await updateRecord(ctx, def, id, values);
      }
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.field, [e.message]]));
      return json(
        { intent, result: submission.reply({ fieldErrors }), formError: error.errors ? failed : `${failed}: ${error.message}` },
        { status: error.status },
      );
    }
    return toast(intent === 'create' ? def.messages.created : def.messages.updated);
  }

  return json({ intent, formError: 'Unknown action' }, { status: 400 });
}

export type ResourceActionData = Awaited<ReturnType<typeof resourceAction>>;
