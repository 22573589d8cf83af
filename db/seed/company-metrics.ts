// Demo company metrics: 36 months, ending with the current month, of network
// figures for mobile companies (and broadband for infrastructure companies), which One
// Network's monthly records read, and Vult-style subscriber figures for fintech companies.
// One Network's latest broadband month holds the reference figures (2144 connections,
// 17 new, 32 churn) and 679 MiFi devices; its mobile subscriptions are the subscribers its
// Mobile Metrics show (active, new and churned, seeded before these), and its access devices
// add up to them. Deterministic: no Math.random.
import type { Kysely } from 'kysely';
import type { Database } from '../types.ts';
import type { SeedModule } from './define.ts';
import { demoMonths, loadDemoReference, mulberry32 } from './demo.ts';

const ONE_NETWORK = 'One Network';
type Db = Kysely<Database>;
type Company = { id: number; name: string; type: string };
type Month = { index: number; year: number; month: number };

/** Hundredths of a percent of `part` in `whole` (0 when the whole is 0). */
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) : 0);
/** A value growing to `latest` over the window, with a little noise before the last month. */
function towards(latest: number, m: Month, last: number, start: number, rng: () => number): number {
  if (m.index === last) return latest;
  const share = start + ((1 - start) * m.index) / last;
  return Math.max(0, Math.round(latest * share * (1 + (rng() - 0.5) * 0.06)));
}
const split = (total: number, shares: number[]) => {
  const parts = shares.map((s) => Math.floor(total * s));
  parts[0] += total - parts.reduce((a, b) => a + b, 0);
  return parts;
};

function monthsOf(now: Date): Month[] {
  return demoMonths(now).map((m) => ({ index: m.index, year: m.year, month: m.month + 1 }));
}

/** One Network's subscribers per month as Mobile Metrics shows them (the demo's subscriber metrics): 'YYYY-M' → figures. */
async function subscribersOf(
  db: Db,
  company: Company,
): Promise<Map<string, { active: number; gained: number; lost: number }>> {
  const rows = await db
    .selectFrom('subscriberMetrics')
    .select(['metricName', 'metricValueHundredths', 'recordDate'])
    .where('companyId', '=', company.id)
    .where('companyType', '=', 'mobile')
    .where('metricName', 'in', ['active_subscribers', 'new_subscribers', 'churned_subscribers'])
    .execute();
  const out = new Map<string, { active: number; gained: number; lost: number }>();
  for (const row of rows) {
    const [year, month] = String(row.recordDate).split('-').map(Number);
    const key = `${year}-${month}`;
    const figures = out.get(key) ?? { active: 0, gained: 0, lost: 0 };
    const value = Math.round(Number(row.metricValueHundredths) / 100);
    if (row.metricName === 'active_subscribers') figures.active = value;
    else if (row.metricName === 'new_subscribers') figures.gained = value;
    else figures.lost = value;
    out.set(key, figures);
  }
  return out;
}

async function networkData(db: Db, company: Company, months: Month[], broadbandOnly: boolean) {
  const rng = mulberry32(company.id * 7919 + 17);
  const last = months.length - 1;
  const oneNetwork = company.name === ONE_NETWORK;
  const subscribers = oneNetwork ? await subscribersOf(db, company) : new Map();
  for (const m of months) {
    const base = { companyId: company.id, year: m.year, month: m.month, createdBy: null };
    const broadband = oneNetwork ? towards(2144, m, last, 0.7, rng) : towards(48_000, m, last, 0.75, rng);
    const [fixed, fiber, fwa] = oneNetwork
      ? split(broadband, [0.7836, 0, 0.2164])
      : split(broadband, [0.35, 0.5, 0.15]);
    const churn = oneNetwork && m.index === last ? [20, 0, 12] : [fixed, fiber, fwa].map((n) => Math.round(n * 0.012));
    const added = oneNetwork && m.index === last ? [12, 0, 5] : [fixed, fiber, fwa].map((n) => Math.round(n * 0.02));
    const types = ['fixed_broadband', 'fixed_fiber', 'fixed_fwa_5g'] as const;
    await db
      .insertInto('broadbandConnections')
      .values(
        [fixed, fiber, fwa].flatMap((active, i) =>
          active === 0 && oneNetwork
            ? []
            : [
                {
                  ...base,
                  connectionType: types[i],
                  activeConnections: active,
                  newThisMonth: added[i],
                  churnThisMonth: churn[i],
                  revenueCents: active * 3_500,
                },
              ],
        ),
      )
      .execute();
    if (broadbandOnly) continue;
    // One Network's subscriptions are its subscribers on Mobile Metrics, split by billing cycle.
    const month = subscribers.get(`${m.year}-${m.month}`);
    const total = month?.active ?? towards(120_000, m, last, 0.8, rng);
    const cycleShares = [0.21, 0.32, 0.47];
    const cycles = split(total, cycleShares);
    const gained = split(month?.gained ?? Math.round(total * 0.05), cycleShares);
    const lost = split(month?.lost ?? Math.round(total * 0.03), cycleShares);
    const prices = [50, 300, 1_500];
    await db
      .insertInto('mobileSubscriptions')
      .values(
        (['daily', 'weekly', 'monthly'] as const).map((type, i) => ({
          ...base,
          subscriptionType: type,
          activeSubscriptions: cycles[i],
          newThisMonth: gained[i],
          churnThisMonth: lost[i],
          revenueCents: cycles[i] * prices[i],
        })),
      )
      .execute();
    // Every subscription is on one device: a SIM card, an eSIM, a MiFi router or an FWA router.
    const mifi = oneNetwork ? towards(679, m, last, 0.6, rng) : Math.round(total * 0.06);
    const esim = Math.round(total * (0.03 + (0.05 * m.index) / last));
    const fwaMobile = Math.round(total * 0.004);
    const devices = [mifi, Math.max(0, total - mifi - esim - fwaMobile), esim, fwaMobile];
    await db
      .insertInto('mobileAccessMethods')
      .values(
        (['mifi', 'sim', 'esim', 'fwa_mobile'] as const).map((method, i) => ({
          ...base,
          accessMethod: method,
          activeDevices: devices[i],
          revenueCents: devices[i] * 1_000,
        })),
      )
      .execute();
  }
}

async function vultFigures(db: Db, company: Company, months: Month[]) {
  const rng = mulberry32(company.id * 104_729 + 3);
  const last = months.length - 1;
  const levels = [
    ['level_0', 0.3],
    ['level_1', 0.35],
    ['level_2', 0.25],
    ['in_progress', 0.1],
  ] as const;
  const cards = [
    ['platinum', 0.06],
    ['gold', 0.14],
    ['black', 0.04],
    ['aqua', 0.18],
    ['plastic', 0.28],
    ['virtual', 0.3],
  ] as const;
  for (const m of months) {
    const base = { companyId: company.id, year: m.year, month: m.month, createdBy: null };
    const total = towards(152_400, m, last, 0.72, rng);
    const adoption = 0.48 + (0.16 * m.index) / last;
    const holders = Math.round(total * adoption);
    await db
      .insertInto('vultSubscriberMetrics')
      .values({
        ...base,
        totalSubscribers: total,
        cardHolders: holders,
        cardAdoptionRateHundredths: pct(holders, total),
        retentionRateHundredths: Math.round((91 + rng() * 4) * 100),
        conversionRateHundredths: Math.round((22 + rng() * 6) * 100),
      })
      .execute();
    const levelCounts = split(
      total,
      levels.map(([, share]) => share),
    );
    await db
      .insertInto('vultSubscriberLevels')
      .values(
        levels.map(([level], i) => ({
          ...base,
          level,
          subscriberCount: levelCounts[i],
          percentageOfTotalHundredths: pct(levelCounts[i], total),
          description: null,
        })),
      )
      .execute();
    const cardCounts = split(
      holders,
      cards.map(([, share]) => share),
    );
    await db
      .insertInto('vultCardTypes')
      .values(
        cards.map(([cardType], i) => ({
          ...base,
          cardType,
          cardCount: cardCounts[i],
          percentageOfCardsHundredths: pct(cardCounts[i], holders),
          percentageOfUsersHundredths: pct(cardCounts[i], total),
          description: null,
        })),
      )
      .execute();
  }
}

export async function seedCompanyMetrics(db: Db, now: Date = new Date()): Promise<void> {
  const { companies } = await loadDemoReference(db);
  const months = monthsOf(now);
  for (const company of companies) {
    if (company.type === 'mobile' || company.type === 'infrastructure')
      await networkData(db, company, months, company.type === 'infrastructure');
    if (company.type === 'fintech') await vultFigures(db, company, months);
  }
}

export const companyMetricsSeed: SeedModule = {
  name: 'company-metrics',
  async run(db, options) {
    if (options.demo) await seedCompanyMetrics(db);
  },
};
