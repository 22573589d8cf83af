// How an import's file arrives: a multipart form (the screen's upload, or an API client's) whose
// file part streams into DATA_DIR/imports as it is read, or a `text/csv` body (the API). These
// routes have their own size limit (IMPORT_MAX_BYTES) instead of the 1 MB of other bodies.
import { unstable_parseMultipartFormData } from '@remix-run/node';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { invalid } from '../../platform/errors.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { storeUpload, type ImportSettings, type StoredFile } from './imports.server.ts';

/** The paths that take an import's upload (POST). */
export const isImportUpload = (path: string) => path === '/api/imports' || path === '/imports';
/** What the form's other fields may add to the file's size. */
export const UPLOAD_FORM_BYTES = 64 * 1024;
/** The longest plain field of an upload form. */
const FIELD_BYTES = 4096;

export interface Upload {
  fields: Record<string, string>;
  file: StoredFile | null;
  fileName: string | null;
}

const stored = new WeakMap<FormData, Upload>();

/** The upload a form read by readUploadForm holds (its file as stored), or none. */
export function uploadOf(form: FormData): Upload | null {
  return stored.get(form) ?? null;
}

/**
 * Reads a multipart form: its one file part into DATA_DIR/imports, the other fields as text.
 * The FormData has the fields (and the file's name under its part's name) for the screen kit.
 */
export async function readUploadForm(request: Request, settings: ImportSettings): Promise<FormData> {
  const upload: Upload = { fields: {}, file: null, fileName: null };
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) {
    const form = await request.formData().catch(() => new FormData());
    for (const [key, value] of form) if (typeof value === 'string') upload.fields[key] = value;
    stored.set(form, upload);
    return form;
  }
  let form: FormData;
  try {
    form = await unstable_parseMultipartFormData(request, async ({ name, filename, data }) => {
      if (filename !== undefined) {
        if (upload.file) {
          for await (const _ of data); // one file per import: the rest is read past
          return undefined;
        }
        if (filename === '') {
          for await (const _ of data);
          return undefined;
        }
        upload.file = await storeUpload(settings, data);
        upload.fileName = filename;
        return filename;
      }
      let text = '';
      for await (const chunk of data) {
        text += Buffer.from(chunk).toString('utf8');
        if (text.length > FIELD_BYTES) throw invalid([{ field: name, message: msg('This field is too long') }]);
      }
      upload.fields[name] = text;
      return text;
    });
  } catch (error) {
    if (upload.file) fs.rmSync(upload.file.path, { force: true });
    throw error;
  }
  stored.set(form, upload);
  return form;
}

/** Reads a refused body to its end without keeping it, so that the answer goes out on a connection still in order. */
async function discard(request: Request): Promise<void> {
  if (!request.body) return;
  try {
    for await (const _ of Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>));
  } catch {
    // a body cut off by the size limit: its 413 is already on its way
  }
}

/** An API upload: a multipart form, or the CSV as the body itself (`text/csv`, fields in the query). */
export async function readApiUpload(request: Request, settings: ImportSettings): Promise<Upload> {
  const type = request.headers.get('content-type') ?? '';
  const query = Object.fromEntries(new URL(request.url).searchParams);
  if (type.startsWith('multipart/form-data')) {
    const upload = uploadOf(await readUploadForm(request, settings))!;
    return { ...upload, fields: { ...query, ...upload.fields } };
  }
  if (!/^(text\/csv|text\/plain|application\/csv|application\/octet-stream)\b/.test(type)) {
    await discard(request);
    throw invalid([{ field: 'body', message: 'Send the file as text/csv, or as the "file" part of a multipart form' }]);
  }
  if (!request.body) throw invalid([{ field: 'file', message: 'The file is empty' }]);
  const file = await storeUpload(settings, Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>));
  return { fields: query, file, fileName: query.fileName ?? 'upload.csv' };
}
