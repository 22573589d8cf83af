// What other areas use of finance on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { expensesToken } from './books-token.server.ts';
export { listCompanyCards } from './companies.server.ts';
export {
  budgetFigures,
  expenseMonthSeries,
  expenseTotals,
  revenueFigures,
  revenueTotals,
  TOTAL_GROUPINGS,
  type TotalGrouping,
} from './figures.server.ts';
