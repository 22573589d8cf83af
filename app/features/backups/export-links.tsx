// The Export tab: one CSV download per table, from the export API, opened in
// a new browser tab. A user limited to one company gets that company's rows only.
import { DownloadIcon } from '../../ui/icons.tsx';
import { Card } from '../../ui/form.tsx';
import type { TableChoice } from './types.ts';
import { useT } from '../../platform/i18n/i18n-context.tsx';

export function ExportLinks({ tables, scoped }: { tables: TableChoice[]; scoped: boolean }) {
  const t = useT();
  return (
    <Card title={t('Export Data')}>
      <p className="mb-4 text-sm text-slate-600">
        {t('Download a table as CSV; each download opens in a new browser tab.')}
        {scoped ? ` ${t('The files hold your company’s rows only.')}` : ''}
      </p>
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3" aria-label={t('Tables to export')}>
        {tables.map((table) => (
          <li key={table.name}>
            <a
              href={`/api/export/${table.name}/csv`}
              target="_blank"
              rel="noopener"
              className="flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
              data-testid="export-link"
            >
              <DownloadIcon className="h-4 w-4 text-slate-500" />
              {t(table.label)}
              <span className="sr-only"> {t('(CSV, opens in a new tab)')}</span>
            </a>
          </li>
        ))}
      </ul>
    </Card>
  );
}
