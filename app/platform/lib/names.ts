// Table names in their two spellings: camelCase in TypeScript (Kysely with CamelCasePlugin),
// snake_case in the database, the audit trail and the export file names.

/** 'actualExpenses' → 'actual_expenses'. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** 'actual_expenses', 'actual-expenses' → 'actualExpenses'. */
export const camelCase = (name: string) => name.replace(/[-_]+([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The one rule for names that must be unique (companies, departments, categories, usernames,
 * e-mails): two names clash when their keys are equal, i.e. case-insensitively after Unicode
 * NFKC normalisation ('Vult', 'vult' and full-width 'Ｖｕｌｔ' are the same name).
 */
export const nameKey = (value: string) => normaliseName(value).toLowerCase();

/** How a name is stored: as typed, but NFKC-normalised and trimmed. */
export const normaliseName = (value: string) => value.normalize('NFKC').trim();
