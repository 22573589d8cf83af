// A calendar day typed in the reader's date format (docs/languages.md): a text input, since a
// date input shows the browser's format instead; the server reads ISO days too (day-input.ts).
import type { InputHTMLAttributes } from 'react';
import { DAY_PATTERNS } from '../platform/i18n/day-input.ts';
import { usePreferences, useT } from '../platform/i18n/i18n-context.tsx';
import { inputClass } from './form.tsx';

export function DayInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const t = useT();
  const { dateFormat } = usePreferences();
  return (
    <input
      className={inputClass}
      {...props}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={t(DAY_PATTERNS[dateFormat])}
    />
  );
}
