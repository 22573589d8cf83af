// Small pieces of the Audit Trail: the action badge and a stored value, folded when long.
import { useT } from '../../platform/i18n/i18n-context.tsx';
import { ACTION_BADGE, ACTION_LABELS, LONG_VALUE, OTHER_BADGE, readableValue } from './values.ts';

export function ActionBadge({ action }: { action: string }) {
  const t = useT();
  const label = ACTION_LABELS[action];
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${ACTION_BADGE[action] ?? OTHER_BADGE}`}
      data-testid="action-badge"
    >
      {label ? t(label) : action.replace(/_/g, ' ')}
    </span>
  );
}

/** A value as text; one longer than LONG_VALUE characters is folded in a <details>. */
export function StoredValue({ value }: { value: unknown }) {
  const t = useT();
  const text = readableValue(value);
  if (text.length <= LONG_VALUE)
    return (
      <span className="break-words" translate="no">
        {text}
      </span>
    );
  return (
    <details className="inline-block max-w-full align-top">
      <summary className="cursor-pointer text-blue-700">
        <span translate="no">{text.slice(0, LONG_VALUE)}</span>
        {t('… ({length} characters)', { length: text.length })}
      </summary>
      <span className="block whitespace-pre-wrap break-words" translate="no">
        {text}
      </span>
    </details>
  );
}
