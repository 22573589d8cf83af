// A read-only table of computed results (predictions, anomalies): a heading per column, one row
// per result; text wraps to fit the box (rows stack on a narrow screen), and what still cannot
// fit scrolls sideways inside a focusable region.
import { Fragment, type ReactNode } from 'react';
import { ScrollRegion } from './scroll-region.tsx';
import { columnLabels } from './column-labels.ts';

export interface ResultColumn<Row> {
  heading: string;
  cell: (row: Row) => ReactNode;
  /** Extra classes of the column's cells (numbers: 'tabular-nums'), or of each row's cell. */
  className?: string | ((row: Row) => string);
  /** Long text shown under the row, across the table, instead of in a narrow column of its own (none when empty). */
  detail?: boolean;
}

const isEmpty = (node: ReactNode) => node === null || node === undefined || node === '';

export function ResultTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  rowTestId,
}: {
  label: string;
  columns: ResultColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  rowTestId?: string;
}) {
  const shown = columns.filter((c) => !c.detail);
  const details = columns.filter((c) => c.detail);
  const classOf = (c: ResultColumn<Row>, row: Row) =>
    (typeof c.className === 'function' ? c.className(row) : c.className) || undefined;
  return (
    <ScrollRegion label={label}>
      {/* Cell padding set once on the table: a long result repeats no class per cell. */}
      <table
        className="fit-table min-w-full divide-y divide-slate-200 bg-white text-sm [&_td]:px-3 [&_td]:py-2"
        style={columnLabels(shown.map((c) => c.heading))}
      >
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            {shown.map((c) => (
              <th key={c.heading} scope="col" className="px-3 py-2 font-medium">
                {c.heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <Fragment key={rowKey(row)}>
              <tr data-testid={rowTestId}>
                {shown.map((c) => (
                  <td key={c.heading} className={classOf(c, row)}>
                    {c.cell(row)}
                  </td>
                ))}
              </tr>
              {details.some((c) => !isEmpty(c.cell(row))) ? (
                <tr className="!border-t-0">
                  <td colSpan={shown.length} className="!pt-0">
                    <dl className="wrap-anywhere grid w-full gap-x-6 gap-y-1 text-left text-slate-700 lg:grid-cols-2">
                      {details
                        .filter((c) => !isEmpty(c.cell(row)))
                        .map((c) => (
                          <div key={c.heading} className={classOf(c, row)}>
                            <dt className="text-xs font-medium text-slate-600">{c.heading}</dt>
                            <dd>{c.cell(row)}</dd>
                          </div>
                        ))}
                    </dl>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
