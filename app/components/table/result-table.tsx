// A read-only table of computed results (predictions, anomalies): a heading per column, one row
// per result, scrolling sideways inside a focusable region when wider than the screen.
import type { ReactNode } from 'react';
import { ScrollRegion } from './scroll-region.tsx';

export interface ResultColumn<Row> {
  heading: string;
  cell: (row: Row) => ReactNode;
  /** Extra classes of the column's cells (numbers: 'tabular-nums'), or of each row's cell. */
  className?: string | ((row: Row) => string);
}

export function ResultTable<Row>({ label, columns, rows, rowKey, rowTestId }: { label: string; columns: ResultColumn<Row>[]; rows: Row[]; rowKey: (row: Row) => string; rowTestId?: string }) {
  return (
    <ScrollRegion label={label}>
      {/* Cell padding set once on the table: a long result repeats no class per cell. */}
      <table className="min-w-full divide-y divide-slate-200 bg-white text-sm [&_td]:px-3 [&_td]:py-2">
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>{columns.map((c) => <th key={c.heading} scope="col" className="px-3 py-2 font-medium">{c.heading}</th>)}</tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId}>
              {columns.map((c) => <td key={c.heading} className={(typeof c.className === 'function' ? c.className(row) : c.className) || undefined}>{c.cell(row)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
