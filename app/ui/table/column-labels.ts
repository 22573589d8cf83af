// The headings a fit-table shows beside each cell once its rows stack on a narrow screen. They are
// set once on the <table> as custom properties (--c1, --c2, …) that each column's cells read in
// their ::before (tailwind.config.ts), instead of a data-label repeated on every cell of every row.
import type { CSSProperties } from 'react';

/** How many columns a fit-table can label: tailwind.config.ts writes one rule per column. */
export const LABELLED_COLUMNS = 12;

/** A CSS string literal of the text. */
function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&').replace(/\n/g, '\\a ')}"`;
}

/**
 * The table's style naming its columns' headings, in column order; `undefined` leaves a column
 * unlabelled (its actions, a cell that explains itself).
 */
export function columnLabels(labels: readonly (string | undefined)[]): CSSProperties {
  if (labels.length > LABELLED_COLUMNS)
    throw new Error(`a fit-table labels at most ${LABELLED_COLUMNS} columns, not ${labels.length}`);
  const style: Record<string, string> = {};
  labels.forEach((label, index) => {
    if (label) style[`--c${index + 1}`] = cssString(label);
  });
  return style as CSSProperties;
}

/** The rules that show the labels: the nth cell of a row (not a cell spanning columns) reads --cn. */
export function columnLabelRules(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Array.from({ length: LABELLED_COLUMNS }, (_, index) => [
      `.fit-table > tbody > tr > td:nth-child(${index + 1}):not([colspan])::before`,
      { content: `var(--c${index + 1})` },
    ]),
  );
}
