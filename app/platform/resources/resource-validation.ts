// The instant checks of a resource form in the browser: conform parses the post with the same
// zod schema the server uses (resources/schema.ts). Loaded by resource-form.tsx with a dynamic
// import() once a form is shown, so zod is a chunk of its own that list pages never load; until
// it has arrived (or without JavaScript) the server's checks answer alone.
import { parseWithZod } from '@conform-to/zod/v4';
import type { ResourceDef } from './define.ts';
import { recordSchema } from './schema.ts';
import type { DateFormat } from '../i18n/preferences.ts';
import type { Reader } from '../i18n/refusal-words.ts';

/** The reader and date format, so the browser's checks and messages are the server's. */
export function formValidator(
  def: Pick<ResourceDef, 'fields' | 'refine'>,
  { t, locale }: Reader,
  dateFormat: DateFormat,
) {
  const schema = recordSchema(def, {}, { form: true, t, locale, dateFormat });
  return (formData: FormData) => parseWithZod(formData, { schema });
}
