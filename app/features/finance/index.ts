// What other areas use of the finance area: the companies' declaration, which their declarations
// reference, and the company picker.
export { companies, companyField } from './companies.ts';
