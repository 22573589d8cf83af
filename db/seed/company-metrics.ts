// Demo company metrics (spec 2 §3): 36 months, ending with the current month, of network
// figures for mobile companies (and broadband for infrastructure companies), One Network's
// monthly records, and Vult-style subscriber figures for fintech companies. The latest One
// Network month holds the figures the specification shows as the screens' defaults (2144
// broadband, 17 new, 32 churn; 30 subscriptions split 10/10/10; 679 MiFi devices at 100 %), so
// a fresh install shows them as real rows (DESIGN §10). Deterministic: no Math.random.
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

async function networkData(db: Db, company: Company, months: Month[], broadbandOnly: boolean) {
  const rng = mulberry32(company.id * 7919 + 17);
  const last = months.length - 1;
  const oneNetwork = company.name === ONE_NETWORK;
  for (const m of months) {
    const base = { companyId: company.id, year: m.year, month: m.month, createdBy: null };
    const broadband = oneNetwork ? towards(2144, m, last, 0.7, rng) : towards(48_000, m, last, 0.75, rng);
    const [fixed, fiber, fwa] = oneNetwork ? split(broadband, [0.7836, 0, 0.2164]) : split(broadband, [0.35, 0.5, 0.15]);
    const churn = oneNetwork && m.index === last ? [20, 0, 12] : [fixed, fiber, fwa].map((n) => Math.round(n * 0.012));
    const added = oneNetwork && m.index === last ? [12, 0, 5] : [fixed, fiber, fwa].map((n) => Math.round(n * 0.02));
    const types = ['fixed_broadband', 'fixed_fiber', 'fixed_fwa_5g'] as const;
    await db.insertInto('broadbandConnections').values(
      [fixed, fiber, fwa].flatMap((active, i) => (active === 0 && oneNetwork ? [] : [{
        ...base, connectionType: types[i], activeConnections: active, newThisMonth: added[i], churnThisMonth: churn[i],
        percentageOfTotalHundredths: pct(active, broadband), revenueCents: active * 3_500,
      }])),
    ).execute();
    if (broadbandOnly) continue;
    const total = oneNetwork ? towards(30, m, last, 0.4, rng) : towards(120_000, m, last, 0.8, rng);
    const cycles = split(total, [1 / 3, 1 / 3, 1 / 3]);
    const prices = [50, 300, 1_500];
    await db.insertInto('mobileSubscriptions').values((['daily', 'weekly', 'monthly'] as const).map((type, i) => ({
      ...base, subscriptionType: type, activeSubscriptions: cycles[i], newThisMonth: Math.round(cycles[i] * 0.05),
      churnThisMonth: Math.round(cycles[i] * 0.03), percentageOfTotalHundredths: pct(cycles[i], total), revenueCents: cycles[i] * prices[i],
    }))).execute();
    const mifi = oneNetwork ? towards(679, m, last, 0.6, rng) : towards(9_000, m, last, 0.7, rng);
    const devices = oneNetwork ? [mifi, 0, 0, 0] : [mifi, Math.round(mifi * 4), Math.round(mifi * 0.4), Math.round(mifi * 0.2)];
    const allDevices = devices.reduce((a, b) => a + b, 0);
    await db.insertInto('mobileAccessMethods').values((['mifi', 'sim', 'esim', 'fwa_mobile'] as const).flatMap((method, i) => (devices[i] === 0 ? [] : [{
      ...base, accessMethod: method, activeDevices: devices[i], percentageOfTotalHundredths: pct(devices[i], allDevices), revenueCents: devices[i] * 1_000,
    }]))).execute();
  }
}

async function oneNetworkRecords(db: Db, company: Company, months: Month[]) {
  const rng = mulberry32(4242);
  const last = months.length - 1;
  for (const m of months) {
    const base = { companyId: company.id, year: m.year, month: m.month, createdBy: null };
    const total = towards(2144, m, last, 0.7, rng);
    const [fixed, , fwa] = split(total, [0.7836, 0, 0.2164]);
    await db.insertInto('networkBroadbandRecords').values({
      ...base, totalBroadband: total, fixedBroadband: fixed, fixedBroadbandPercentageHundredths: pct(fixed, total),
      fixedFwa5gRouter: fwa, fixedFwa5gRouterPercentageHundredths: pct(fwa, total),
      newConnections: m.index === last ? 17 : Math.round(total * 0.02), churnConnections: m.index === last ? 32 : Math.round(total * 0.012),
    }).execute();
    const subs = towards(30, m, last, 0.4, rng);
    const [daily, weekly, monthly] = split(subs, [1 / 3, 1 / 3, 1 / 3]);
    const cycle = (n: number) => ({ count: n, share: pct(n, subs), added: Math.round(n * 0.1), lost: Math.round(n * 0.05) });
    const [d, w, mo] = [cycle(daily), cycle(weekly), cycle(monthly)];
    await db.insertInto('networkSubscriptionPatterns').values({
      ...base, totalMobileSubscriptions: subs,
      dailySubscriptions: d.count, dailySubscriptionsPercentageHundredths: d.share, dailyNew: d.added, dailyChurn: d.lost,
      weeklySubscriptions: w.count, weeklySubscriptionsPercentageHundredths: w.share, weeklyNew: w.added, weeklyChurn: w.lost,
      monthlySubscriptions: mo.count, monthlySubscriptionsPercentageHundredths: mo.share, monthlyNew: mo.added, monthlyChurn: mo.lost,
    }).execute();
    const mifi = towards(679, m, last, 0.6, rng);
    await db.insertInto('networkAccessRecords').values({
      ...base, mifiDevices: mifi, mifiDevicesPercentageHundredths: mifi > 0 ? 10_000 : 0,
      simCards: 0, simCardsPercentageHundredths: 0, eSim: 0, eSimPercentageHundredths: 0, fwaMobile: 0, fwaMobilePercentageHundredths: 0,
    }).execute();
  }
}

async function vultFigures(db: Db, company: Company, months: Month[]) {
  const rng = mulberry32(company.id * 104_729 + 3);
  const last = months.length - 1;
  const levels = [['level_0', 0.3], ['level_1', 0.35], ['level_2', 0.25], ['in_progress', 0.1]] as const;
  const cards = [['platinum', 0.06], ['gold', 0.14], ['black', 0.04], ['aqua', 0.18], ['plastic', 0.28], ['virtual', 0.3]] as const;
  for (const m of months) {
    const base = { companyId: company.id, year: m.year, month: m.month, createdBy: null };
    const total = towards(152_400, m, last, 0.72, rng);
    const adoption = 0.48 + (0.16 * m.index) / last;
    const holders = Math.round(total * adoption);
    await db.insertInto('vultSubscriberMetrics').values({
      ...base, totalSubscribers: total, cardHolders: holders, cardAdoptionRateHundredths: pct(holders, total),
      retentionRateHundredths: Math.round((91 + rng() * 4) * 100), conversionRateHundredths: Math.round((22 + rng() * 6) * 100),
    }).execute();
    const levelCounts = split(total, levels.map(([, share]) => share));
    await db.insertInto('vultSubscriberLevels').values(levels.map(([level], i) => ({
      ...base, level, subscriberCount: levelCounts[i], percentageOfTotalHundredths: pct(levelCounts[i], total), description: null,
    }))).execute();
    const cardCounts = split(holders, cards.map(([, share]) => share));
    await db.insertInto('vultCardTypes').values(cards.map(([cardType], i) => ({
      ...base, cardType, cardCount: cardCounts[i], percentageOfCardsHundredths: pct(cardCounts[i], holders),
      percentageOfUsersHundredths: pct(cardCounts[i], total), description: null,
    }))).execute();
  }
}

export async function seedCompanyMetrics(db: Db, now: Date = new Date()): Promise<void> {
  const { companies } = await loadDemoReference(db);
  const months = monthsOf(now);
  for (const company of companies) {
    if (company.type === 'mobile' || company.type === 'infrastructure') await networkData(db, company, months, company.type === 'infrastructure');
    if (company.name === ONE_NETWORK) await oneNetworkRecords(db, company, months);
    if (company.type === 'fintech') await vultFigures(db, company, months);
  }
}

export const companyMetricsSeed: SeedModule = {
  name: 'company-metrics',
  async run(db, options) {
    if (options.demo) await seedCompanyMetrics(db);
  },
};
