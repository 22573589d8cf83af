// Table names in their two spellings: camelCase in TypeScript (Kysely with CamelCasePlugin),
// snake_case in the database, the audit trail and the specification's export names.

/** 'actualExpenses' → 'actual_expenses'. */
export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** 'actual_expenses', 'actual-expenses' → 'actualExpenses'. */
export const camelCase = (name: string) => name.replace(/[-_]+([a-z])/g, (_, c: string) => c.toUpperCase());
