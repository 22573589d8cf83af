// The /imports route's server half (docs/imports.md): `?table=budgets` offers the upload of a
// CSV file, `?id=12` shows one of the user's imports: its check (the matched columns, which can
// be chosen again, the first rows as they will be stored, the refused rows with their lines and
// messages) with Import all / Import valid rows, its progress while it runs (the page reloads
// itself, with or without JavaScript), and how it ended.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json, redirect } from '@remix-run/node';
import { z } from 'zod';
import { loadDownload, loadScreen, screenAction } from '../../platform/screen/screen.server.ts';
import { intent } from '../../platform/screen/intent.ts';
import { allow, screenAccess } from '../../platform/screen/route-access.ts';
import { csvDownloadHeaders } from '../../platform/resources/csv.server.ts';
import { RESOURCE_LIST } from '../resources.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { authorize } from '../../platform/resources/resource-rows.server.ts';
import type { ServiceContext } from '../../platform/context.ts';
import {
  chooseColumns,
  createImport,
  dispatchImport,
  earlierImport,
  findImport,
  importableResource,
  startImport,
  type StoredOutcome,
} from './imports.server.ts';
import { importSettings } from './imports-api.server.ts';
import { readUploadForm, uploadOf } from './upload.server.ts';
import type { ImportScreenData } from './import-screen.tsx';
import { msg } from '../../platform/i18n/messages.ts';
import { requestI18n } from '../shell/index.server.ts';
import { parsedWords, storedWords } from '../../platform/i18n/refusal-words.ts';
import type { Locale } from '../../platform/i18n/locales.ts';

const positiveId = (text: string | null) => (text && /^\d{1,9}$/.test(text) && Number(text) > 0 ? Number(text) : null);

/** The tables the user may import into (create permission), for the chooser. */
function importableTables(ctx: ServiceContext) {
  return RESOURCE_LIST.filter((def) => {
    if (def.readOnly) return false;
    try {
      authorize(ctx, def, 'create');
      return true;
    } catch {
      return false;
    }
  }).map((def) => ({ key: def.key, title: def.title }));
}

/** The kept errors as the reader reads them (what the import worded in each language). */
function inLanguage(outcome: StoredOutcome, locale: Locale): StoredOutcome {
  return {
    ...outcome,
    errors: outcome.errors.map(({ line, field, message, words }) => ({
      line,
      field,
      message: storedWords(message, words, locale),
    })),
  };
}

export const loader = (args: LoaderFunctionArgs) =>
  loadScreen(args, async ({ ctx, url, request, auth }) => {
    const idText = url.searchParams.get('id');
    if (idText !== null) {
      const id = positiveId(idText);
      if (id === null) throw notFound();
      const row = await findImport(ctx, id);
      const def = importableResource(row.resource);
      const { locale } = requestI18n(request, auth).preferences;
      const outcome = row.outcome ? inLanguage(JSON.parse(row.outcome) as StoredOutcome, locale) : null;
      const earlier = row.importedAt ? null : await earlierImport(ctx, def.key, row.fileHash, row.id);
      const data: ImportScreenData = {
        kind: 'import',
        tables: [],
        table: { key: def.key, title: def.title },
        fields: def.fields.map((f) => ({ name: f.name, label: f.label, required: f.required === true })),
        import: {
          id: row.id,
          fileName: row.fileName,
          status: row.status,
          phase: row.phase,
          mode: row.mode,
          updateById: row.updateById,
          rowsRead: row.rowsRead,
          rows: row.rowsTotal,
          valid: row.rowsValid,
          invalid: row.rowsInvalid,
          created: row.rowsCreated,
          updated: row.rowsUpdated,
          unchanged: row.rowsUnchanged,
          error: row.error === null ? null : storedWords(row.error, parsedWords(row.errorTexts), locale),
          hasRefused: row.refusedPath !== null,
          canRun: row.filePath !== null && !row.importedAt && (row.status === 'checked' || row.status === 'failed'),
          duplicate: earlier,
        },
        outcome,
      };
      return json(data, { headers: { 'Cache-Control': 'no-store' } });
    }
    const key = url.searchParams.get('table');
    const def = key ? importableResource(key) : null;
    if (def) authorize(ctx, def, 'create');
    const data: ImportScreenData = {
      kind: 'upload',
      tables: importableTables(ctx),
      table: def ? { key: def.key, title: def.title } : null,
      fields: def ? def.fields.map((f) => ({ name: f.name, label: f.label, required: f.required === true })) : [],
      import: null,
      outcome: null,
    };
    return json(data);
  });

const UploadSchema = z.object({
  table: z.string({ error: msg('Choose a table') }).min(1, msg('Choose a table')),
  updateById: z.literal('on').optional(),
});

const RunSchema = z.object({
  id: z.coerce.number().int().positive(),
  mode: z.enum(['all', 'valid'], { error: msg('Choose how to import') }),
  allowDuplicate: z.literal('on').optional(),
});

const ColumnsSchema = z.object({ id: z.coerce.number().int().positive() });

const intents = {
  upload: intent({
    allow: allow.signedIn,
    schema: UploadSchema,
    run: async (value, screen, form) => {
      const upload = uploadOf(form);
      if (!upload?.file) throw invalid([{ field: 'file', message: msg('Choose a CSV file') }]);
      const settings = importSettings(screen.context.config);
      const row = await createImport(screen.ctx, {
        table: value.table,
        fileName: upload.fileName ?? 'upload.csv',
        file: upload.file,
        updateById: value.updateById === 'on',
        phase: 'check',
      });
      await dispatchImport(screen.ctx, settings, row.id);
      return redirect(`/imports?id=${row.id}`);
    },
  }),
  columns: intent({
    allow: allow.signedIn,
    schema: ColumnsSchema,
    run: async (value, screen, form) => {
      const row = await findImport(screen.ctx, value.id);
      const def = importableResource(row.resource);
      const chosen: Record<string, number | null> = {};
      for (const field of def.fields) {
        const text = form.get(`column.${field.name}`);
        if (typeof text !== 'string') continue;
        chosen[field.name] = /^\d{1,4}$/.test(text) ? Number(text) : null;
      }
      await chooseColumns(screen.ctx, importSettings(screen.context.config), value.id, chosen);
      return redirect(`/imports?id=${value.id}`);
    },
  }),
  import: intent({
    allow: allow.signedIn,
    schema: RunSchema,
    run: async (value, screen) => {
      await startImport(screen.ctx, importSettings(screen.context.config), value.id, {
        mode: value.mode,
        allowDuplicate: value.allowDuplicate === 'on',
      });
      return redirect(`/imports?id=${value.id}`);
    },
  }),
};

export const access = screenAccess(intents);

export const action = (args: ActionFunctionArgs) =>
  screenAction(args, intents, {
    i18n: requestI18n,
    readForm: (request, page) => readUploadForm(request, importSettings(page.context.config)),
  });

/** GET /imports/refused?id=12: the refused rows of an import with their line and reasons. */
export const refusedLoader = (args: LoaderFunctionArgs) =>
  loadDownload(args, async ({ ctx, url }) => {
    const id = positiveId(url.searchParams.get('id'));
    if (id === null) throw notFound();
    const row = await findImport(ctx, id);
    if (!row.refusedPath || !fs.existsSync(row.refusedPath)) throw notFound(msg('This import refused no rows'));
    const stream = Readable.toWeb(fs.createReadStream(row.refusedPath)) as ReadableStream<Uint8Array>;
    return new Response(stream, {
      headers: csvDownloadHeaders(`import-${row.id}-refused-rows.csv`),
    });
  });
