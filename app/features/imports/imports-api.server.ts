// POST /api/imports and GET /api/imports/{id} (docs/api.md, "Imports").
import { z } from 'zod';
import type { AppConfig } from '../../platform/config.server.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { fieldErrorsFromZod, invalid } from '../../platform/errors.ts';
import { createImport, dispatchImport, importAnswer, type ImportSettings } from './imports.server.ts';
import { readApiUpload } from './upload.server.ts';

export const importSettings = (config: Pick<AppConfig, 'dataDir' | 'imports'>): ImportSettings => ({
  dataDir: config.dataDir,
  ...config.imports,
});

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** The fields of an API upload (query or multipart fields). */
export const ImportRequest = z.object({
  table: z.string({ error: 'Table is required' }).min(1, 'Table is required'),
  mode: z.enum(['all', 'valid'], { error: 'Mode must be one of: all, valid' }).default('all'),
  dryRun: flag,
  updateById: flag,
  allowDuplicate: flag,
  fileName: z.string().max(255).optional(),
});

export async function receiveApiImport(
  ctx: ServiceContext,
  config: Pick<AppConfig, 'dataDir' | 'imports'>,
  request: Request,
) {
  const settings = importSettings(config);
  const upload = await readApiUpload(request, settings);
  const parsed = ImportRequest.safeParse(upload.fields);
  if (!parsed.success || !upload.file) {
    if (upload.file) (await import('node:fs')).rmSync(upload.file.path, { force: true });
    throw invalid([
      ...(parsed.success ? [] : fieldErrorsFromZod(parsed.error.issues)),
      ...(upload.file ? [] : [{ field: 'file', message: 'Choose a CSV file' }]),
    ]);
  }
  const value = parsed.data;
  const row = await createImport(ctx, {
    table: value.table,
    fileName: value.fileName ?? upload.fileName ?? 'upload.csv',
    file: upload.file,
    updateById: value.updateById,
    phase: value.dryRun ? 'check' : 'import',
    mode: value.mode,
    allowDuplicate: value.allowDuplicate,
  });
  return importAnswer(await dispatchImport(ctx, settings, row.id));
}
