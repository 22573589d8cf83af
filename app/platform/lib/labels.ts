// Names of tables and columns as people read them: 'actual_expenses' → 'Actual Expenses',
// 'apiIntegrationSources' → 'API Integration Sources', 'receiptNumber' → 'Receipt Number'.
// Isomorphic.
import { snakeCase } from './names.ts';

/** Words written in capitals wherever a table or column is named. */
const ACRONYMS: Readonly<Record<string, string>> = { api: 'API', ai: 'AI', id: 'ID', ip: 'IP', url: 'URL' };

/** A camelCase or snake_case name as capitalised words, acronyms in capitals. */
export function wordsLabel(name: string): string {
  return snakeCase(name)
    .split('_')
    .filter((w) => w !== '')
    .map((w) => ACRONYMS[w] ?? w[0].toUpperCase() + w.slice(1))
    .join(' ');
}
