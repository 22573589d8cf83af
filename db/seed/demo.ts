// Demo figures for every company (docs/data-model.md): budgets,
// actual expenses, revenue projections, actual revenue and subscriber metrics for the 36 whole
// months ending with the current month (UTC). Generation is pure and deterministic (seeded
// PRNG, no Math.random); insertion is batched through the seed transaction.
import { MONTH_NAMES } from '../months.ts';
import type { Insertable, Kysely } from 'kysely';
import type {
  ActualExpensesTable,
  ActualRevenueTable,
  BudgetsTable,
  CompanyType,
  Database,
  RevenueProjectionsTable,
  STATUSES,
  SubscriberMetricsTable,
} from '../types.ts';
import type { SeedModule } from './define.ts';

export const DEMO_MONTHS = 36;
/** Rows per INSERT: 500 × at most 10 columns stays far below PostgreSQL's 65535 parameters. */
const CHUNK = 500;

type Status = (typeof STATUSES)[number];

export interface DemoReference {
  companies: { id: number; name: string; type: CompanyType }[];
  categories: { id: number; companyId: number; departmentId: number | null; name: string; department: string | null }[];
}

export interface DemoRows {
  budgets: Insertable<BudgetsTable>[];
  actualExpenses: Insertable<ActualExpensesTable>[];
  revenueProjections: Insertable<RevenueProjectionsTable>[];
  actualRevenue: Insertable<ActualRevenueTable>[];
  subscriberMetrics: Insertable<SubscriberMetricsTable>[];
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: a tiny 32-bit PRNG, good enough for demo figures. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a hash of a key, so each company and data set has its own stable stream. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

type Rng = () => number;
const rngFor = (...parts: string[]): Rng => mulberry32(hash(`finhub-demo:${parts.join(':')}`));
const between = (rng: Rng, lo: number, hi: number) => lo + rng() * (hi - lo);
const intBetween = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const jitter = (rng: Rng, pct: number) => 1 + (rng() * 2 - 1) * pct;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const chance = (rng: Rng, p: number) => rng() < p;
/** Money in whole cents, rounded to `step` dollars, never below one step. */
const cents = (dollars: number, step = 0.01) =>
  Math.max(Math.round(step * 100), Math.round(dollars / step) * Math.round(step * 100));

function sample<T>(rng: Rng, items: readonly T[], n: number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, n);
}

// ---------------------------------------------------------------------------------------------
// Calendar

export { MONTH_NAMES };
const pad = (n: number) => String(n).padStart(2, '0');
const day = (year: number, month: number, d: number) => `${year}-${pad(month + 1)}-${pad(d)}`;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

interface Month {
  /** 0 = oldest month of the window, 35 = the current month. */
  index: number;
  year: number;
  /** 0–11 */
  month: number;
  first: string;
  last: string;
  label: string;
  /** Last day that may carry actuals: the month's last day, or today in the current month. */
  lastActualDay: number;
  /** Share of the month elapsed (1 except in the current month). */
  elapsed: number;
}

export function demoMonths(today: Date): Month[] {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const months: Month[] = [];
  for (let index = 0; index < DEMO_MONTHS; index++) {
    const at = new Date(Date.UTC(y, m - (DEMO_MONTHS - 1) + index, 1));
    const year = at.getUTCFullYear();
    const month = at.getUTCMonth();
    const length = daysIn(year, month);
    const current = index === DEMO_MONTHS - 1;
    const lastActualDay = current ? today.getUTCDate() : length;
    months.push({
      index,
      year,
      month,
      first: day(year, month, 1),
      last: day(year, month, length),
      label: `${MONTH_NAMES[month]} ${year}`,
      lastActualDay,
      elapsed: lastActualDay / length,
    });
  }
  return months;
}

/**
 * A plan approved for its period is active, also once the period is over: it stays the plan of
 * its months ('expired' means withdrawn or superseded, 'pending' not yet approved: docs/plans.md).
 * The demo's plans are all approved.
 */
const PLAN_STATUS: Status = 'active';

/** Compound growth from the start of the window; `annual` is the yearly rate. */
const growth = (annual: number, monthIndex: number) => Math.pow(1 + annual, monthIndex / 12);

// ---------------------------------------------------------------------------------------------
// Expense categories: monthly budget (US$, at the start of the window, before company scale),
// typical vendors (null = none recorded) and what the spending is for.

interface CategoryProfile {
  monthly: number;
  vendors: (string | null)[];
  items: string[];
  /** Fixed day of the month (rent, payroll); otherwise any day. */
  dayOfMonth?: number;
  /** Spending as a share of the month's budget. */
  spend?: [number, number];
}

const CATEGORY_PROFILES: Record<string, CategoryProfile> = {
  'Salaries & Wages': {
    monthly: 820_000,
    vendors: ['Internal payroll', 'ADP Payroll Services', null],
    items: ['Monthly payroll', 'Salaries and statutory contributions'],
    dayOfMonth: 25,
    spend: [0.96, 1.03],
  },
  'Training & Development': {
    monthly: 24_000,
    vendors: ['Coursera for Business', 'LinkedIn Learning', 'Pluralsight', 'Institute of Directors', null],
    items: [
      'Leadership programme',
      'Technical certification courses',
      'Compliance training',
      'Conference registration',
    ],
  },
  'Office Rent': {
    monthly: 115_000,
    vendors: ['Harbour Point Estates', 'Greenfield Properties Ltd'],
    items: ['Head office rent', 'Office lease'],
    dayOfMonth: 1,
    spend: [0.99, 1.0],
  },
  Utilities: {
    monthly: 34_000,
    vendors: ['City Power & Light', 'Metro Water Utility', 'Northern Gas Co.', null],
    items: ['Electricity', 'Water and sanitation', 'Heating and cooling'],
  },
  'Software Licences': {
    monthly: 18_000,
    vendors: ['Microsoft', 'Atlassian', 'Salesforce', 'Adobe', 'Slack Technologies', 'Zoom Video Communications'],
    items: [
      'Productivity suite seats',
      'Issue tracker licences',
      'CRM subscription',
      'Design tool licences',
      'Video conferencing plan',
    ],
  },
  'Cloud Hosting': {
    monthly: 58_000,
    vendors: ['Amazon Web Services', 'Google Cloud', 'Microsoft Azure', 'Cloudflare'],
    items: ['Compute and storage', 'Managed databases', 'CDN and edge services', 'Backup storage'],
  },
  'Marketing Campaigns': {
    monthly: 140_000,
    vendors: ['Ogilvy', 'Meta Platforms', 'Google Ads', 'OutdoorMedia Group', null],
    items: ['Brand campaign media', 'Digital acquisition campaign', 'Billboard flight', 'Social media promotion'],
  },
  'Travel & Entertainment': {
    monthly: 21_000,
    vendors: ['Emirates', 'Marriott Hotels', 'Hertz', 'Uber for Business', null],
    items: ['Client visit travel', 'Sales team accommodation', 'Ground transport', 'Client dinner'],
  },
  'Legal Fees': {
    monthly: 28_000,
    vendors: ['Baker McKenzie', 'Webber Wentzel', 'Clifford Chance'],
    items: ['Contract review', 'Regulatory advice', 'Dispute resolution retainer'],
  },
  'Audit & Accounting': {
    monthly: 19_000,
    vendors: ['Deloitte', 'PwC', 'KPMG', 'EY'],
    items: ['Interim audit fieldwork', 'Tax advisory', 'Quarterly review', 'Accounting advisory'],
  },
  'Customer Support Tools': {
    monthly: 11_000,
    vendors: ['Zendesk', 'Twilio', 'Freshworks', 'Genesys'],
    items: ['Help desk seats', 'Contact centre telephony', 'Chat and messaging channel'],
  },
  'Equipment Purchases': {
    monthly: 42_000,
    vendors: ['Dell Technologies', 'Lenovo', 'Apple', 'HP Inc.', null],
    items: [
      'Laptops for new joiners',
      'Monitors and docking stations',
      'Meeting room equipment',
      'Replacement hardware',
    ],
  },
  'Spectrum Licences': {
    monthly: 380_000,
    vendors: ['National Communications Authority'],
    items: ['Spectrum licence fee instalment', 'Annual frequency usage fee instalment'],
    dayOfMonth: 15,
    spend: [0.98, 1.0],
  },
  'Tower Leases': {
    monthly: 240_000,
    vendors: ['Atlas Infrastructure', 'IHS Towers', 'American Tower'],
    items: ['Tower site leases', 'Rooftop site rentals'],
    dayOfMonth: 5,
    spend: [0.97, 1.02],
  },
  'Network Maintenance': {
    monthly: 170_000,
    vendors: ['Ericsson', 'Nokia', 'Huawei Technologies', null],
    items: ['Radio network maintenance', 'Core network support contract', 'Field engineering call-outs'],
  },
  'Interconnect Fees': {
    monthly: 190_000,
    vendors: ['Telkom Wholesale', 'Vodacom Carrier Services', 'BICS'],
    items: ['Voice interconnect settlement', 'International termination charges', 'SMS interconnect'],
  },
  'Device Subsidies': {
    monthly: 110_000,
    vendors: ['Samsung Electronics', 'Apple', 'Xiaomi', 'Transsion (Tecno)'],
    items: ['Handset subsidies on postpaid contracts', 'MiFi router subsidies', 'Smartphone promotion'],
  },
  'Payment Processing Fees': {
    monthly: 85_000,
    vendors: ['Visa', 'Mastercard', 'Stripe', 'Adyen'],
    items: ['Scheme fees', 'Acquiring fees', 'Processing charges'],
  },
  'Card Issuing': {
    monthly: 38_000,
    vendors: ['Thales', 'IDEMIA', 'Marqeta'],
    items: ['Card manufacturing', 'Issuer processing', 'Card delivery'],
  },
  'Fraud Prevention': {
    monthly: 29_000,
    vendors: ['Feedzai', 'Sift', 'SEON'],
    items: ['Transaction monitoring', 'Device fingerprinting', 'Chargeback management'],
  },
  'KYC Verification': {
    monthly: 24_000,
    vendors: ['Onfido', 'Smile Identity', 'Jumio'],
    items: ['Identity verification checks', 'Document verification', 'AML screening'],
  },
  'Data Centre Power': {
    monthly: 150_000,
    vendors: ['City Power & Light', 'GreenGrid Energy'],
    items: ['Data centre electricity', 'Generator diesel', 'Power and cooling'],
  },
  'Fibre Construction': {
    monthly: 280_000,
    vendors: ['Dark Fibre Africa Contractors', 'Corning', 'FibreWorks Civil'],
    items: ['Trenching and duct laying', 'Fibre cable supply', 'Splicing and commissioning'],
  },
  'Hardware Maintenance': {
    monthly: 48_000,
    vendors: ['Cisco Systems', 'Schneider Electric', 'Vertiv', null],
    items: ['Switch and router support', 'UPS maintenance', 'Cooling system service'],
  },
  'Site Permits': {
    monthly: 14_000,
    vendors: ['Municipal Planning Office', 'Civil Aviation Authority', null],
    items: ['Tower building permit', 'Wayleave application', 'Environmental assessment fee'],
  },
  'Media Buying': {
    monthly: 190_000,
    vendors: ['Google Ads', 'Meta Platforms', 'Primedia Broadcasting', 'JCDecaux'],
    items: ['Client media placements', 'Radio airtime', 'Outdoor media', 'Programmatic display'],
  },
  'Creative Production': {
    monthly: 58_000,
    vendors: ['Blue Lantern Studios', 'Shutterstock', 'Freelance creative pool', null],
    items: ['Video production', 'Photo shoot', 'Stock imagery licences', 'Copywriting'],
  },
  'Events & Sponsorships': {
    monthly: 48_000,
    vendors: ['Sandton Convention Centre', 'EventWorks', 'Tech Summit Africa'],
    items: ['Trade show stand', 'Event sponsorship', 'Client launch event'],
  },
  'Market Research': {
    monthly: 19_000,
    vendors: ['Ipsos', 'Nielsen', 'Kantar'],
    items: ['Brand health tracker', 'Consumer survey', 'Focus groups'],
  },
};

const DEFAULT_PROFILE: CategoryProfile = {
  monthly: 15_000,
  vendors: ['General supplier', null],
  items: ['Operating costs'],
};

/** Company size relative to the mobile operator; budgets grow with it. */
const COMPANY_SCALE: Record<CompanyType, number> = { mobile: 1, infrastructure: 0.7, fintech: 0.55, marketing: 0.3 };
/** Company-specific weights on top of the scale (the marketing agency buys media for clients…). */
const CATEGORY_WEIGHT: Partial<Record<CompanyType, Record<string, number>>> = {
  marketing: { 'Media Buying': 3, 'Creative Production': 2.5, 'Marketing Campaigns': 0.6 },
  infrastructure: { 'Fibre Construction': 1.6, 'Data Centre Power': 1.5 },
  fintech: { 'Cloud Hosting': 1.6, 'Payment Processing Fees': 1.8, 'Fraud Prevention': 1.4 },
};
const BUDGET_GROWTH: Record<CompanyType, number> = {
  mobile: 0.05,
  infrastructure: 0.07,
  fintech: 0.14,
  marketing: 0.06,
};

// ---------------------------------------------------------------------------------------------
// Revenue sources per company type: monthly revenue (US$) at the start of the window, yearly
// growth, seasonality and whether entries name a customer.

type Season = 'retail' | 'travel' | 'flat' | 'campaign';
const SEASONS: Record<Season, number[]> = {
  retail: [-0.06, -0.05, -0.01, 0, 0.01, 0.02, 0.03, 0.03, 0, 0.01, 0.04, 0.1],
  travel: [-0.1, -0.12, -0.02, 0.03, 0.05, 0.12, 0.25, 0.22, 0.02, -0.03, -0.06, 0.18],
  flat: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  campaign: [-0.18, -0.08, 0.04, 0.02, 0.03, -0.04, -0.1, -0.06, 0.06, 0.1, 0.16, 0.08],
};

interface RevenueSource {
  source: string;
  monthly: number;
  growth: number;
  season: Season;
  /** Entries carry a customer reference (business customers) or none (retail channels). */
  customers: boolean;
  entries: string[];
}

const REVENUE_SOURCES: Record<CompanyType, RevenueSource[]> = {
  mobile: [
    {
      source: 'Prepaid Airtime',
      monthly: 4_100_000,
      growth: 0.03,
      season: 'retail',
      customers: false,
      entries: ['Electronic top-ups', 'Scratch-card voucher sales', 'Airtime dealer settlement'],
    },
    {
      source: 'Postpaid Plans',
      monthly: 2_700_000,
      growth: 0.06,
      season: 'flat',
      customers: true,
      entries: ['Consumer postpaid billing cycle', 'Enterprise fleet billing', 'SME bundle billing'],
    },
    {
      source: 'Data Bundles',
      monthly: 3_400_000,
      growth: 0.18,
      season: 'retail',
      customers: false,
      entries: ['Daily and weekly data bundles', 'Monthly data bundles', 'MiFi and FWA data plans'],
    },
    {
      source: 'Device Sales',
      monthly: 880_000,
      growth: 0.02,
      season: 'retail',
      customers: true,
      entries: ['Handset sales (retail stores)', 'MiFi router sales', 'Corporate device order'],
    },
    {
      source: 'Roaming',
      monthly: 340_000,
      growth: 0.08,
      season: 'travel',
      customers: true,
      entries: ['Inbound roaming settlement', 'Outbound roaming charges', 'Roaming partner true-up'],
    },
  ],
  fintech: [
    {
      source: 'Card Interchange',
      monthly: 780_000,
      growth: 0.34,
      season: 'retail',
      customers: false,
      entries: ['Debit card interchange', 'Virtual card interchange', 'Premium card interchange'],
    },
    {
      source: 'Transaction Fees',
      monthly: 1_150_000,
      growth: 0.3,
      season: 'retail',
      customers: false,
      entries: ['Wallet transfer fees', 'Merchant payment fees', 'Cash-out fees'],
    },
    {
      source: 'Lending Interest',
      monthly: 920_000,
      growth: 0.38,
      season: 'flat',
      customers: true,
      entries: ['Personal loan interest', 'Merchant cash advance interest', 'Overdraft interest'],
    },
    {
      source: 'Subscription Plans',
      monthly: 290_000,
      growth: 0.26,
      season: 'flat',
      customers: true,
      entries: ['Gold plan subscriptions', 'Platinum plan subscriptions', 'Business account plans'],
    },
  ],
  infrastructure: [
    {
      source: 'Tower Leasing',
      monthly: 1_550_000,
      growth: 0.08,
      season: 'flat',
      customers: true,
      entries: ['Anchor tenant site leases', 'Co-location tenancy', 'Power-as-a-service on towers'],
    },
    {
      source: 'Fibre Leasing',
      monthly: 870_000,
      growth: 0.12,
      season: 'flat',
      customers: true,
      entries: ['Dark fibre IRU instalment', 'Metro lit capacity', 'Long-haul wavelength lease'],
    },
    {
      source: 'Colocation',
      monthly: 530_000,
      growth: 0.15,
      season: 'flat',
      customers: true,
      entries: ['Rack space rental', 'Cross-connect charges', 'Remote hands services'],
    },
  ],
  marketing: [
    {
      source: 'Retainers',
      monthly: 440_000,
      growth: 0.07,
      season: 'flat',
      customers: true,
      entries: ['Monthly brand retainer', 'Social media management retainer', 'PR retainer'],
    },
    {
      source: 'Campaign Fees',
      monthly: 370_000,
      growth: 0.09,
      season: 'campaign',
      customers: true,
      entries: ['Campaign strategy and concept', 'Launch campaign execution', 'Seasonal campaign fee'],
    },
    {
      source: 'Media Commissions',
      monthly: 210_000,
      growth: 0.05,
      season: 'campaign',
      customers: true,
      entries: ['Media agency commission', 'Digital media commission', 'Outdoor booking commission'],
    },
  ],
};

export function revenueSourcesFor(type: CompanyType): string[] {
  return REVENUE_SOURCES[type].map((s) => s.source);
}

/** Expected monthly revenue of a source (before noise). */
function sourceTrend(s: RevenueSource, m: Month): number {
  return s.monthly * growth(s.growth, m.index) * (1 + SEASONS[s.season][m.month]);
}

// ---------------------------------------------------------------------------------------------
// Generation

export function buildDemoRows(reference: DemoReference, now: Date = new Date()): DemoRows {
  const months = demoMonths(now);
  const rows: DemoRows = {
    budgets: [],
    actualExpenses: [],
    revenueProjections: [],
    actualRevenue: [],
    subscriberMetrics: [],
  };
  for (const company of reference.companies) {
    const categories = reference.categories.filter((c) => c.companyId === company.id && c.departmentId !== null);
    budgetsFor(company, categories, months, rows);
    expensesFor(company, categories, months, rows);
    revenueFor(company, months, rows);
    if (company.type === 'mobile') mobileMetricsFor(company, months, rows);
    if (company.type === 'fintech') fintechMetricsFor(company, months, rows);
  }
  return rows;
}

type Company = DemoReference['companies'][number];
type Category = DemoReference['categories'][number];

const profileOf = (name: string) => CATEGORY_PROFILES[name] ?? DEFAULT_PROFILE;

/** Expected monthly budget of a category, in dollars (before noise). */
function budgetTrend(company: Company, category: Category, monthIndex: number): number {
  const weight = CATEGORY_WEIGHT[company.type]?.[category.name] ?? 1;
  return (
    profileOf(category.name).monthly *
    COMPANY_SCALE[company.type] *
    weight *
    growth(BUDGET_GROWTH[company.type], monthIndex)
  );
}

/**
 * How a category is planned: one period per category, so no two plans cover the same month
 * (fixed costs month by month, the others by the year or the quarter, alternately).
 */
function planPeriodOf(category: Category, index: number): 'monthly' | 'quarterly' | 'annual' {
  if (profileOf(category.name).dayOfMonth !== undefined) return 'monthly';
  return index % 2 === 0 ? 'annual' : 'quarterly';
}

function budgetsFor(company: Company, categories: Category[], months: Month[], rows: DemoRows) {
  const rng = rngFor(company.name, 'budgets');
  const budget = (
    category: Category,
    amountCents: number,
    period: 'monthly' | 'quarterly' | 'annual',
    startDate: string,
    endDate: string,
    description: string,
  ) =>
    rows.budgets.push({
      companyId: company.id,
      departmentId: category.departmentId!,
      categoryId: category.id,
      amountCents,
      period,
      startDate,
      endDate,
      description,
      status: PLAN_STATUS,
      createdBy: null,
    });

  const first = months[0];
  /** The trend of `count` calendar months from month `month` (0–11) of `year`, in dollars. */
  const trendOf = (category: Category, year: number, month: number, count: number) => {
    let total = 0;
    for (let i = 0; i < count; i++)
      total += budgetTrend(company, category, (year - first.year) * 12 + month + i - first.month);
    return total;
  };
  const years = [...new Set(months.map((m) => m.year))];
  const quarters = [...new Set(months.map((m) => `${m.year}-${Math.floor(m.month / 3)}`))].map((q) =>
    q.split('-').map(Number),
  );
  categories.forEach((category, index) => {
    const where = category.department ? ` (${category.department})` : '';
    const period = planPeriodOf(category, index);
    if (period === 'monthly') {
      for (const m of months) {
        const amount = cents(budgetTrend(company, category, m.index) * jitter(rng, 0.03), 100);
        budget(category, amount, 'monthly', m.first, m.last, `${category.name}${where} budget for ${m.label}`);
      }
    } else if (period === 'quarterly') {
      // Each calendar quarter the window touches: its three months' trend, rounded to $1,000.
      for (const [year, quarter] of quarters) {
        const amount = cents(trendOf(category, year, quarter * 3, 3) * jitter(rng, 0.02), 1000);
        budget(
          category,
          amount,
          'quarterly',
          day(year, quarter * 3, 1),
          day(year, quarter * 3 + 2, daysIn(year, quarter * 3 + 2)),
          `${category.name}${where} budget for Q${quarter + 1} ${year}`,
        );
      }
    } else {
      // Each calendar year the window touches: the twelve months' trend, rounded to $1,000.
      for (const year of years) {
        const amount = cents(trendOf(category, year, 0, 12) * jitter(rng, 0.02), 1000);
        budget(
          category,
          amount,
          'annual',
          `${year}-01-01`,
          `${year}-12-31`,
          `${category.name}${where} annual budget ${year}`,
        );
      }
    }
  });
}

function expensesFor(company: Company, categories: Category[], months: Month[], rows: DemoRows) {
  if (categories.length === 0) return;
  const rng = rngFor(company.name, 'expenses');
  const fixed = categories.filter((c) => profileOf(c.name).dayOfMonth !== undefined);
  const variable = categories.filter((c) => profileOf(c.name).dayOfMonth === undefined);
  let receipt = 1000 + intBetween(rng, 0, 8000);

  for (const m of months) {
    const wanted = intBetween(rng, 8, 15);
    const chosen = [...fixed, ...sample(rng, variable, Math.max(0, wanted - fixed.length))];
    const drawn = chosen.map((category) => {
      const profile = profileOf(category.name);
      const [lo, hi] = profile.spend ?? [0.55, 1.2];
      const vendor = chance(rng, 0.1) ? null : pick(rng, profile.vendors);
      return {
        category,
        amount: budgetTrend(company, category, m.index) * between(rng, lo, hi),
        vendor,
        receipt: chance(rng, 0.15)
          ? null
          : `${vendor ? 'INV' : 'RCT'}-${String(m.year).slice(2)}${pad(m.month + 1)}-${(receipt += intBetween(rng, 1, 40))}`,
        day: profile.dayOfMonth ?? intBetween(rng, 1, 28),
        item: pick(rng, profile.items),
      };
    });
    // In the current month only what has happened by today (at least one entry, on or before today).
    drawn.sort((a, b) => a.day - b.day);
    let happened = drawn.filter((e) => e.day <= m.lastActualDay);
    if (happened.length === 0) happened = [{ ...drawn[0], day: m.lastActualDay }];
    for (const e of happened) {
      rows.actualExpenses.push({
        companyId: company.id,
        departmentId: e.category.departmentId!,
        categoryId: e.category.id,
        amountCents: cents(e.amount),
        expenseDate: day(m.year, m.month, e.day),
        description: `${e.item}, ${m.label}`,
        vendor: e.vendor,
        receiptNumber: e.receipt,
        createdBy: null,
      });
    }
  }
}

function revenueFor(company: Company, months: Month[], rows: DemoRows) {
  const rng = rngFor(company.name, 'revenue');
  // A stable book of business customers per company, so references recur month to month.
  const customerBook = Array.from({ length: 24 }, () => `CUST-${intBetween(rng, 10_000, 99_999)}`);
  for (const s of REVENUE_SOURCES[company.type]) {
    const customers = sample(rng, customerBook, 6);
    for (const m of months) {
      const trend = sourceTrend(s, m);
      rows.revenueProjections.push({
        companyId: company.id,
        source: s.source,
        amountCents: cents(trend * jitter(rng, 0.02), 1000),
        period: 'monthly',
        startDate: m.first,
        endDate: m.last,
        description: `${s.source} projection for ${m.label}`,
        status: PLAN_STATUS,
        createdBy: null,
      });

      // Actuals miss or beat the projection by a few percent, split over 2–4 entries.
      const actual = trend * jitter(rng, 0.07) * m.elapsed;
      const n = intBetween(rng, 2, 4);
      const weights = Array.from({ length: n }, () => between(rng, 0.6, 1.4));
      const sum = weights.reduce((a, b) => a + b, 0);
      const days = Array.from({ length: n }, () => intBetween(rng, 1, m.lastActualDay)).sort((a, b) => a - b);
      for (let i = 0; i < n; i++) {
        const reference = s.customers && !chance(rng, 0.15) ? pick(rng, customers) : null;
        rows.actualRevenue.push({
          companyId: company.id,
          source: s.source,
          amountCents: cents((actual * weights[i]) / sum),
          revenueDate: day(m.year, m.month, days[i]),
          description: chance(rng, 0.08) ? null : `${pick(rng, s.entries)}, ${m.label}`,
          customerReference: reference,
          createdBy: null,
        });
      }
    }
  }
}

interface Metric {
  name: string;
  value: number;
  description: string;
}

function pushMetrics(company: Company, companyType: 'mobile' | 'fintech', m: Month, metrics: Metric[], rows: DemoRows) {
  for (const metric of metrics) {
    rows.subscriberMetrics.push({
      companyId: company.id,
      companyType,
      metricName: metric.name,
      metricValueHundredths: Math.max(0, Math.round(metric.value * 100)),
      period: 'monthly',
      recordDate: m.last,
      description: `${metric.description}, ${m.label}`,
      createdBy: null,
    });
  }
}

function mobileMetricsFor(company: Company, months: Month[], rows: DemoRows) {
  const rng = rngFor(company.name, 'mobile-metrics');
  const roaming = REVENUE_SOURCES.mobile.find((s) => s.source === 'Roaming')!;
  let active = 900_000 + intBetween(rng, 0, 20_000);
  for (const m of months) {
    const season = SEASONS.retail[m.month];
    const gained = Math.round(active * (0.031 + season * 0.1) * jitter(rng, 0.12));
    const churned = Math.round(active * 0.026 * jitter(rng, 0.1));
    active += gained - churned;
    const t = m.index;
    pushMetrics(
      company,
      'mobile',
      m,
      [
        { name: 'new_subscribers', value: gained, description: 'Subscribers activated during the month' },
        { name: 'active_subscribers', value: active, description: 'Active subscribers at month end' },
        { name: 'churned_subscribers', value: churned, description: 'Subscribers lost during the month' },
        {
          name: 'arpu',
          value: Math.round(11.2 * growth(0.04, t) * (1 + season * 0.5) * jitter(rng, 0.01) * 100) / 100,
          description: 'Average revenue per user (USD)',
        },
        {
          name: 'data_usage',
          value: Math.round(active * 5.4 * Math.pow(1.021, t) * jitter(rng, 0.03)),
          description: 'Mobile data used (GB)',
        },
        {
          name: 'voice_minutes',
          value: Math.round(active * 162 * Math.pow(0.995, t) * jitter(rng, 0.03)),
          description: 'Outgoing voice minutes',
        },
        {
          name: 'sms_count',
          value: Math.round(active * 36 * Math.pow(0.985, t) * jitter(rng, 0.04)),
          description: 'SMS messages sent',
        },
        {
          name: 'roaming_revenue',
          value: Math.round(sourceTrend(roaming, m) * jitter(rng, 0.06) * 100) / 100,
          description: 'Roaming revenue (USD)',
        },
      ],
      rows,
    );
  }
}

function fintechMetricsFor(company: Company, months: Month[], rows: DemoRows) {
  const rng = rngFor(company.name, 'fintech-metrics');
  let active = 140_000 + intBetween(rng, 0, 5_000);
  let aum = 42_000_000 * jitter(rng, 0.02);
  let defaultRate = 2.6;
  for (const m of months) {
    const t = m.index;
    const season = SEASONS.retail[m.month];
    const gained = Math.round(active * (0.045 + season * 0.1) * jitter(rng, 0.15));
    const lapsed = Math.round(active * 0.016 * jitter(rng, 0.15));
    active += gained - lapsed;
    const perUser = 14 * (1 + season) * jitter(rng, 0.04);
    const count = Math.round(active * perUser);
    const ticket = 38 * growth(0.03, t) * jitter(rng, 0.03);
    aum *= 1 + 0.032 * jitter(rng, 0.5);
    defaultRate = Math.min(3.4, Math.max(1.8, defaultRate + (rng() - 0.52) * 0.18));
    pushMetrics(
      company,
      'fintech',
      m,
      [
        { name: 'new_users', value: gained, description: 'Users who opened an account during the month' },
        { name: 'active_users', value: active, description: 'Users with at least one transaction in the month' },
        {
          name: 'transaction_volume',
          value: Math.round(count * ticket * 100) / 100,
          description: 'Value of transactions processed (USD)',
        },
        { name: 'transaction_count', value: count, description: 'Number of transactions processed' },
        { name: 'aum', value: Math.round(aum * 100) / 100, description: 'Assets under management at month end (USD)' },
        {
          name: 'loan_origination',
          value: Math.round(6_500_000 * growth(0.36, t) * jitter(rng, 0.08) * 100) / 100,
          description: 'New loans disbursed (USD)',
        },
        {
          name: 'default_rate',
          value: Math.round(defaultRate * 100) / 100,
          description: 'Loans 90+ days past due (%)',
        },
        {
          name: 'customer_acquisition_cost',
          value: Math.round(24.5 * Math.pow(0.992, t) * jitter(rng, 0.06) * 100) / 100,
          description: 'Marketing spend per new user (USD)',
        },
      ],
      rows,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Database

export async function loadDemoReference(db: Kysely<Database>): Promise<DemoReference> {
  const companies = await db.selectFrom('companies').select(['id', 'name', 'type']).orderBy('id').execute();
  const categories = await db
    .selectFrom('expenseCategories as c')
    .leftJoin('departments as d', 'd.id', 'c.departmentId')
    .select(['c.id', 'c.companyId', 'c.departmentId', 'c.name', 'd.name as department'])
    .orderBy('c.id')
    .execute();
  return { companies, categories };
}

async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await insert(rows.slice(i, i + CHUNK));
}

export async function insertDemoRows(db: Kysely<Database>, rows: DemoRows): Promise<void> {
  await inChunks(rows.budgets, (chunk) => db.insertInto('budgets').values(chunk).execute());
  await inChunks(rows.actualExpenses, (chunk) => db.insertInto('actualExpenses').values(chunk).execute());
  await inChunks(rows.revenueProjections, (chunk) => db.insertInto('revenueProjections').values(chunk).execute());
  await inChunks(rows.actualRevenue, (chunk) => db.insertInto('actualRevenue').values(chunk).execute());
  await inChunks(rows.subscriberMetrics, (chunk) => db.insertInto('subscriberMetrics').values(chunk).execute());
}

export const demoSeed: SeedModule = {
  name: 'demo',
  async run(db, options) {
    if (!options.demo) return;
    await insertDemoRows(db, buildDemoRows(await loadDemoReference(db), new Date()));
  },
};
