// A date or time as the reader wants it, with the ISO value kept in <time datetime> for
// machines and for anyone who wants the exact instant (its title).
import type { Formats } from './formats.ts';
import { useFormats } from './i18n-context.tsx';

type Kind = 'day' | 'instantDate' | 'instant' | 'time';

export function DateTime({
  value,
  kind = 'instant',
  className,
}: {
  value: string | null | undefined;
  kind?: Kind;
  className?: string;
}) {
  const formats: Formats = useFormats();
  if (!value) return null;
  return (
    <time dateTime={value} title={kind === 'day' ? undefined : value} className={className}>
      {formats[kind](value)}
    </time>
  );
}
