import type { ReactNode } from 'react';

/**
 * The box a table scrolls sideways in when it is wider than the screen. It takes the focus
 * (tabIndex 0) and is a named region, so keyboard users can scroll it with the arrow keys and
 * screen readers announce what it holds (axe: scrollable-region-focusable). Without it a table
 * of plain text that overflows cannot be reached from the keyboard at all.
 */
export function ScrollRegion({
  label,
  className = '',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={className ? `scroll-region ${className}` : 'scroll-region'}
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      {children}
    </div>
  );
}
