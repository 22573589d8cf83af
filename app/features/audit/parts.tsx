// Small pieces of the Audit Trail: the action badge and a stored value, folded when long.
import { ACTION_BADGE, LONG_VALUE, OTHER_BADGE, readableValue } from './values.ts';

export function ActionBadge({ action }: { action: string }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium capitalize ${ACTION_BADGE[action] ?? OTHER_BADGE}`}
      data-testid="action-badge"
    >
      {action.replace(/_/g, ' ')}
    </span>
  );
}

/** A value as text; one longer than LONG_VALUE characters is folded in a <details>. */
export function StoredValue({ value }: { value: unknown }) {
  const text = readableValue(value);
  if (text.length <= LONG_VALUE) return <span className="break-words">{text}</span>;
  return (
    <details className="inline-block max-w-full align-top">
      <summary className="cursor-pointer text-blue-700">
        {text.slice(0, LONG_VALUE)}… ({text.length} characters)
      </summary>
      <span className="block whitespace-pre-wrap break-words">{text}</span>
    </details>
  );
}
