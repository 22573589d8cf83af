// Reference data: the four companies, the 16 shared departments, categories per company.
import type { Kysely } from 'kysely';
import type { CompanyType, Database } from '../types.ts';
import type { SeedModule } from './define.ts';

export const COMPANIES: { name: string; type: CompanyType; description: string }[] = [
  {
    name: 'One Network',
    type: 'mobile',
    description: 'Mobile network operator: broadband, mobile subscriptions and access devices.',
  },
  { name: 'Vult', type: 'fintech', description: 'Financial services: digital wallets, cards and subscriber accounts.' },
  {
    name: 'Atlas Infrastructure',
    type: 'infrastructure',
    description: 'Towers, fibre and data-centre infrastructure for the group.',
  },
  {
    name: 'Spark Marketing',
    type: 'marketing',
    description: 'Brand, media and campaign services for the group and its clients.',
  },
];

export const DEPARTMENTS: { name: string; description: string }[] = [
  { name: 'Finance', description: 'Accounting, treasury, budgeting and financial reporting.' },
  { name: 'Human Resources', description: 'Hiring, payroll administration, training and staff welfare.' },
  { name: 'Marketing', description: 'Brand, campaigns, media and market research.' },
  { name: 'Sales', description: 'Direct and channel sales, partner management and commissions.' },
  { name: 'Engineering', description: 'Product and platform engineering.' },
  { name: 'IT', description: 'Internal systems, devices, licences and support.' },
  { name: 'Operations', description: 'Day-to-day operations, facilities and logistics.' },
  { name: 'Legal', description: 'Contracts, disputes and corporate affairs.' },
  { name: 'Customer Support', description: 'Customer care, contact centres and service quality.' },
  { name: 'Product', description: 'Product management, design and research.' },
  { name: 'Procurement', description: 'Purchasing, vendor management and contracts with suppliers.' },
  { name: 'Administration', description: 'Offices, administration and general services.' },
  { name: 'Research & Development', description: 'New technology, pilots and research partnerships.' },
  { name: 'Compliance', description: 'Regulatory compliance, licences, risk and internal audit.' },
  { name: 'Network Operations', description: 'Network planning, maintenance and operations centres.' },
  { name: 'Business Development', description: 'Partnerships, new markets and corporate development.' },
];

/** [category, department or null] shared by every company. */
const COMMON: [string, string | null][] = [
  ['Salaries & Wages', 'Human Resources'],
  ['Training & Development', 'Human Resources'],
  ['Office Rent', 'Administration'],
  ['Utilities', 'Operations'],
  ['Software Licences', 'IT'],
  ['Cloud Hosting', 'Engineering'],
  ['Marketing Campaigns', 'Marketing'],
  ['Travel & Entertainment', 'Sales'],
  ['Legal Fees', 'Legal'],
  ['Audit & Accounting', 'Finance'],
  ['Customer Support Tools', 'Customer Support'],
  ['Equipment Purchases', 'Procurement'],
  ['Miscellaneous', null],
];

const BY_TYPE: Record<CompanyType, [string, string | null][]> = {
  mobile: [
    ['Spectrum Licences', 'Compliance'],
    ['Tower Leases', 'Network Operations'],
    ['Network Maintenance', 'Network Operations'],
    ['Interconnect Fees', 'Network Operations'],
    ['Device Subsidies', 'Sales'],
  ],
  fintech: [
    ['Payment Processing Fees', 'Operations'],
    ['Card Issuing', 'Product'],
    ['Fraud Prevention', 'Compliance'],
    ['KYC Verification', 'Compliance'],
  ],
  infrastructure: [
    ['Data Centre Power', 'Operations'],
    ['Fibre Construction', 'Network Operations'],
    ['Hardware Maintenance', 'IT'],
    ['Site Permits', 'Legal'],
  ],
  marketing: [
    ['Media Buying', 'Marketing'],
    ['Creative Production', 'Marketing'],
    ['Events & Sponsorships', 'Business Development'],
    ['Market Research', 'Research & Development'],
  ],
};

export function categoriesFor(type: CompanyType): [string, string | null][] {
  return [...COMMON, ...BY_TYPE[type]];
}

export const referenceSeed: SeedModule = {
  name: 'reference',
  async run(db: Kysely<Database>) {
    const companies = await db.insertInto('companies').values(COMPANIES).returning(['id', 'type']).execute();
    const departments = await db.insertInto('departments').values(DEPARTMENTS).returning(['id', 'name']).execute();
    const departmentId = new Map(departments.map((d) => [d.name, d.id]));
    for (const company of companies) {
      await db
        .insertInto('expenseCategories')
        .values(
          categoriesFor(company.type).map(([name, department]) => ({
            companyId: company.id,
            departmentId: department ? departmentId.get(department)! : null,
            name,
            description: department ? `${name} (${department})` : 'Costs not assigned to a department',
          })),
        )
        .execute();
    }
  },
};
