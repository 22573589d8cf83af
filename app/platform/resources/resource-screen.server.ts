// Loader and action of a declared resource's list screen: the URL holds search, filter, sort,
// page and the open form (?new=1, ?edit=ID); the action handles create, update and delete
// (with a server-rendered confirmation step when the browser has no JavaScript).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { companiesOf, companyFieldOf, referenceChoices, type ResourceDef } from './define.ts';
import { recordSchema } from './schema.ts';
import type { Action } from '../lib/permissions.ts';
import { notFound } from '../errors.ts';
import { lastPage, PAGE_SIZE } from '../lib/paging.ts';
import { positiveIdParam } from '../lib/query.ts';
import { screenListQuery, screenListState } from './list-query.ts';
import {
  authorize,
  createRecord,
  deleteRecord,
  formChoices,
  getRecord,
  listRecords,
  updateRecord,
  type ListQuery,
} from './resources.server.ts';
import { findScreenCompany, listVisibleCompanies } from '../companies.server.ts';
import { actingUser, actorCompanyScope, type ServiceContext } from '../context.ts';
import { screenChoices, screenRows } from '../screen/screen-rows.ts';
import { rowSummary } from './cell-text.ts';
import { formatsFor, type Formats } from '../i18n/formats.ts';
import { DEFAULT_PREFERENCES, preferencesOf, type Preferences } from '../i18n/preferences.ts';
import type { Translate } from '../i18n/messages.ts';
import type { Auth } from '../session/session.server.ts';
import { confirmDeleteText, say } from './texts.ts';
import { asReader, ENGLISH, type Reader } from '../i18n/refusal-words.ts';
import {
  clampedPage,
  confirmationStep,
  formRowId,
  loadScreen,
  openScreen,
  screenAction,
  succeed,
  type Intent,
  type Screen,
} from '../screen/screen.server.ts';
import { intent } from '../screen/intent.ts';
import { resourceIntentRules } from '../screen/route-access.ts';

/** The signed-in reader's formats (docs/languages.md). */
function readerFormats(screen: Screen) {
  const { settings } = screen.auth;
  return formatsFor(settings ? preferencesOf(settings) : DEFAULT_PREFERENCES);
}

/**
 * The language of whoever posts (the shell's requestI18n, which app/platform cannot import: the
 * route passes it). Without it the screen writes English.
 */
export type ScreenI18n = (
  request: Request,
  auth: Auth | null,
) => { t: Translate; preferences: Preferences; formats: Formats };

function readerOf(screen: Screen, i18n: ScreenI18n | undefined): { reader: Reader; formats: Formats } {
  if (!i18n) return { reader: ENGLISH, formats: readerFormats(screen) };
  const said = i18n(screen.request, screen.auth);
  return { reader: asReader(said), formats: said.formats };
}

interface ScreenOptions {
  /** Limits the screen to one company type (Mobile Metrics, Fintech Metrics). */
  companyType?: 'mobile' | 'fintech';
  /** Extra fixed list conditions (the Expense Categories tab's company). */
  listQuery?: (url: URL) => Partial<ListQuery>;
}

interface LoaderOptions extends ScreenOptions {
  /** Row fields the screen renders besides its columns (an inline control's value). */
  rowFields?: readonly string[];
  /** Choice lists the screen renders with no form open (an inline dropdown). */
  choiceLists?: readonly string[];
}

interface ActionOptions extends ScreenOptions {
  /** The company the screen is about, by name: a user limited to another company may not post (404). */
  company?: string;
  /**
   * The screen's rows are that company's (`companyId`): new and edited rows are its whatever
   * the form says, and a row of another company is not found here (404), as in its list.
   */
  pinCompany?: boolean;
  /** The screen's own intents besides create, update and delete (also given to resourceScreenAccess). */
  intents?: Record<string, Intent>;
  /** The poster's language for the screen's texts (the route passes the shell's requestI18n). */
  i18n?: ScreenI18n;
}

/** Whether the services would let this user do it (the same check, so the screen never offers a 403). */
function allowed(ctx: ServiceContext, def: ResourceDef, action: Action): boolean {
  if (!actingUser(ctx)) return false;
  try {
    authorize(ctx, def, action);
    return true;
  } catch {
    return false;
  }
}

/** Which controls the list screen shows: none that write on a read-only resource. */
export function screenPermissions(ctx: ServiceContext, def: ResourceDef) {
  return { create: allowed(ctx, def, 'create'), edit: allowed(ctx, def, 'edit'), delete: allowed(ctx, def, 'delete') };
}

export function resourceLoader<D extends ResourceDef>(def: D, args: LoaderFunctionArgs, options: LoaderOptions = {}) {
  return loadScreen(args, async ({ ctx, url }) => {
    const state = screenListState(def, url.searchParams);
    const fixed: Partial<ListQuery> = {
      ...(options.companyType ? { companyType: options.companyType } : {}),
      ...options.listQuery?.(url),
    };
    const { page, result: list } = await clampedPage(
      state.page,
      (p) => listRecords(ctx, def, screenListQuery(def, { ...state, page: p }, fixed)),
      (result) => lastPage(result.total),
    );
    const editId = positiveIdParam(url.searchParams.get('edit'));
    const editing = editId !== null && allowed(ctx, def, 'edit') ? await getRecord(ctx, def, editId) : null;
    // A row outside the screen's fixed company (a tab of one company) is not found here.
    if (editing && fixed.companyId != null && editing.companyId !== fixed.companyId) throw notFound();
    const creating = url.searchParams.get('new') === '1' && allowed(ctx, def, 'create');
    const choices = await formChoices(ctx, def, fixed, { form: creating || editing !== null });
    let companyName: string | null = null;
    if (options.companyType) {
      // The company choices are those of the screen's company type (formChoices narrows them).
      const companyField = companyFieldOf(def);
      const companies = companyField ? referenceChoices(companyField, choices) : [];
      // A user limited to a company of another type has no such screen (404).
      if (companies.length === 0 && actorCompanyScope(ctx) !== null) throw notFound();
      companyName = companies[0]?.label ?? null;
    }
    return {
      rows: screenRows(def, list.rows, options.rowFields),
      total: list.total,
      page,
      pageCount: lastPage(list.total),
      pageSize: PAGE_SIZE,
      state: { ...state, page },
      editing,
      creating,
      choices: screenChoices(choices, creating || editing !== null, [
        ...(options.choiceLists ?? []),
        ...(def.list.companyFilter ? [companiesOf(def)!.choices!.list] : []),
      ]),
      companyName,
      can: screenPermissions(ctx, def),
    };
  });
}

/** What resourceLoader gives a screen; its rows typed by the declaration. */
export type ResourceLoaderData<D extends ResourceDef = ResourceDef> = Awaited<ReturnType<typeof resourceLoader<D>>>;

/** Empty optional inputs of a full form post clear the stored value. */
function formValues(def: ResourceDef, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const field of def.fields) {
    if (out[field.name] !== undefined) continue;
    if (field.kind === 'text' || field.kind === 'textarea' || (field.kind === 'reference' && field.nullable))
      out[field.name] = null;
  }
  return out;
}

/** Create and update, delete (with the no-JS confirmation step), and the screen's own intents. */
export function resourceAction(def: ResourceDef, args: ActionFunctionArgs, options: ActionOptions = {}) {
  // A log has no forms: nothing to post.
  if (def.readOnly) throw new Response('Method Not Allowed', { status: 405, headers: { Allow: 'GET' } });
  const { messages } = def;
  const { companyType } = options;
  // The rules resourceScreenAccess exports, checked by the kit before the form is validated (the services check again).
  const rules = resourceIntentRules(def);
  /** The pinned company's id, and the row's company checked against it. */
  const pinned = async (screen: Screen, id?: number): Promise<{ companyId?: number }> => {
    if (!options.pinCompany || !options.company) return {};
    const company = await findScreenCompany(screen.ctx, options.company);
    if (!company) throw notFound();
    if (id !== undefined && (await getRecord(screen.ctx, def, id)).companyId !== company.id) throw notFound();
    return { companyId: company.id };
  };
  // A company screen does not exist for a user limited to a company of another type (404).
  const open = async (screenArgs: ActionFunctionArgs) => {
    const screen = await openScreen(screenArgs);
    const notFound = () => new Response('Not Found', { status: 404 });
    if (
      companyType &&
      screen.user.companyId !== null &&
      !(await listVisibleCompanies(screen.ctx)).some((c) => c.type === companyType)
    )
      throw notFound();
    if (options.company && !(await findScreenCompany(screen.ctx, options.company).catch(() => null))) throw notFound();
    return screen;
  };
  // The screen is opened first: its reader's language writes the form's checks and the texts.
  return open(args).then((opened) => {
    const { reader, formats } = readerOf(opened, options.i18n);
    const text = (screenText: (typeof messages)[keyof typeof messages]) => say(screenText, reader, def.noun);
    const schema = recordSchema(def, companyType ? { companyType } : {}, {
      form: true,
      t: reader.t,
      locale: reader.locale,
      dateFormat: formats.preferences.dateFormat,
    });
    return screenAction(
      args,
      {
        create: intent({
          allow: rules.create,
          schema,
          invalid: text(messages.createFailed),
          failed: text(messages.createFailed),
          prefix: true,
          run: async (value, screen) => {
            const fixed = await pinned(screen);
            await createRecord(screen.ctx, def, { ...formValues(def, value), ...fixed });
            return succeed(screen, text(messages.created));
          },
        }),
        update: intent({
          allow: rules.update,
          schema,
          invalid: text(messages.updateFailed),
          failed: text(messages.updateFailed),
          prefix: true,
          run: async (value, screen, form) => {
            const id = formRowId(form);
            const fixed = await pinned(screen, id);
            await updateRecord(screen.ctx, def, id, { ...formValues(def, value), ...fixed });
            return succeed(screen, text(messages.updated));
          },
        }),
        delete: intent({
          allow: rules.delete,
          invalid: text(messages.deleteFailed),
          failed: text(messages.deleteFailed),
          prefix: true,
          run: async (_value, screen, form) => {
            const id = formRowId(form);
            await pinned(screen, id);
            const record = await getRecord(screen.ctx, def, id);
            // A message without the row's name gets the row in words: the step stands alone on the page.
            const named = typeof messages.confirmDelete === 'string' && messages.confirmDelete.includes('{name}');
            const confirm = confirmationStep(
              form,
              id,
              confirmDeleteText(def, reader, String(record.name ?? '')),
              named ? {} : { subject: rowSummary(def, record, formats, reader.t) },
            );
            if (confirm) return confirm;
            await deleteRecord(screen.ctx, def, id);
            return succeed(screen, text(messages.deleted));
          },
        }),
        ...options.intents,
      },
      { open: async () => opened, i18n: options.i18n },
    );
  });
}
