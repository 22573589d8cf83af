// The analysis's texts as messages: the /api spells each in English exactly as the analysis
// wrote it before it had messages (every count, name and plural), and the screen's other
// languages translate each with its values in place.
import { describe, expect, it } from 'vitest';
import { compileCatalogs } from '../../platform/i18n/catalog.server.ts';
import { ANALYSIS_TEXTS, inEnglish, type AnalysisText } from './integration-analysis.server.ts';
import messages from './messages.json';

/** The analysis's English as it was written before (template literals), for comparison. */
const BEFORE = {
  failingIssue: (n: number) => `${n} endpoint${n === 1 ? '' : 's'} failed in 2 or more of their last 5 runs`,
  slowIssue: (n: number) => `${n} endpoint${n === 1 ? '' : 's'} answered in more than 5 seconds on average`,
  automationTitle: (table: string) => `Import ${table} automatically`,
  automationDescription: (entries: number, table: string, months: number, company: string | null) =>
    `${entries} ${table} entr${entries === 1 ? 'y was' : 'ies were'} typed in by hand in ${months} of the last 6 months${company ? ` for ${company}` : ''}, and no active endpoint fills this table.`,
  automationReasoning: (since: string, months: string[]) =>
    `Counted from the audit trail: creates by signed-in users since ${since}, in ${months.join(', ')}.`,
  automationEndpoint: (table: string) =>
    `Add an inbound endpoint targeting ${table} with a mapping and a daily frequency`,
  repairTitle: (endpoint: string | null) => `Repair the ${endpoint ?? 'endpoint'} sync`,
  repairDescription: (failures: number, runs: number) => `${failures} of its last ${runs} runs failed.`,
  credentialsTitle: (source: string) => `Add credentials for ${source}`,
  credentialsDescription: (source: string, auth: string, active: number) =>
    `${source} uses ${auth} authentication but has no active credential${active ? `; its ${active} active endpoint${active === 1 ? '' : 's'} cannot sync` : ''}.`,
};

const COUNTS = [0, 1, 2, 5, 21, 999, 1000, 1234, 1_000_000];
// Names are data: braces, quotes, apostrophes, '#' and non-Latin letters come out as they are.
const NAMES = ['Ledger API', "O'Brien {prod} #2", 'Zahlungsdienst "Süd" – ö', '{count}', 'a, b'];
const TABLES = ['budgets', 'actual revenue', 'vult_card_types'];
const COMPANIES = [null, '', 'Vult', "One Network's {x}"];

describe('the analysis texts in English (the /api)', () => {
  it('issues', () => {
    for (const n of COUNTS) {
      expect(inEnglish(ANALYSIS_TEXTS.failingIssue(n))).toBe(BEFORE.failingIssue(n));
      expect(inEnglish(ANALYSIS_TEXTS.slowIssue(n))).toBe(BEFORE.slowIssue(n));
    }
  });

  it('automation', () => {
    for (const table of TABLES) {
      expect(inEnglish(ANALYSIS_TEXTS.automationTitle(table))).toBe(BEFORE.automationTitle(table));
      expect(inEnglish(ANALYSIS_TEXTS.automationEndpoint(table))).toBe(BEFORE.automationEndpoint(table));
      for (const entries of COUNTS)
        for (const months of [3, 6])
          for (const company of COMPANIES)
            expect(inEnglish(ANALYSIS_TEXTS.automationDescription(entries, table, months, company))).toBe(
              BEFORE.automationDescription(entries, table, months, company),
            );
    }
    for (const months of [['2026-06'], ['2026-06', '2026-07', '2026-09']])
      expect(inEnglish(ANALYSIS_TEXTS.automationReasoning('2026-06-01', months))).toBe(
        BEFORE.automationReasoning('2026-06-01', months),
      );
  });

  it('repair and credentials', () => {
    for (const name of [...NAMES, null]) {
      expect(inEnglish(ANALYSIS_TEXTS.repairTitle(name))).toBe(BEFORE.repairTitle(name));
    }
    for (const [failures, runs] of [
      [3, 10],
      [5, 5],
      [10, 10],
    ])
      expect(inEnglish(ANALYSIS_TEXTS.repairDescription(failures, runs))).toBe(
        BEFORE.repairDescription(failures, runs),
      );
    for (const name of NAMES) {
      expect(inEnglish(ANALYSIS_TEXTS.credentialsTitle(name))).toBe(BEFORE.credentialsTitle(name));
      for (const auth of ['api key', 'bearer', 'basic', 'oauth2'])
        for (const active of COUNTS)
          expect(inEnglish(ANALYSIS_TEXTS.credentialsDescription(name, auth, active))).toBe(
            BEFORE.credentialsDescription(name, auth, active),
          );
    }
  });
});

describe('the analysis texts in the other languages (the screen)', () => {
  const catalogs = compileCatalogs({ integrations: messages });
  const samples: AnalysisText[] = [
    ANALYSIS_TEXTS.failingIssue(1),
    ANALYSIS_TEXTS.failingIssue(1234),
    ANALYSIS_TEXTS.slowIssue(3),
    ANALYSIS_TEXTS.automationTitle('actual revenue'),
    ANALYSIS_TEXTS.automationDescription(1, 'budgets', 4, null),
    ANALYSIS_TEXTS.automationDescription(1234, 'budgets', 4, 'Vult'),
    ANALYSIS_TEXTS.automationReasoning('2026-06-01', ['2026-06', '2026-07']),
    ANALYSIS_TEXTS.automationEndpoint('actual_revenue'),
    ANALYSIS_TEXTS.repairTitle('Ledger sync'),
    ANALYSIS_TEXTS.repairTitle(null),
    ANALYSIS_TEXTS.repairDescription(3, 10),
    ANALYSIS_TEXTS.credentialsTitle('Ledger API'),
    ANALYSIS_TEXTS.credentialsDescription('Ledger API', 'api key', 0),
    ANALYSIS_TEXTS.credentialsDescription('Ledger API', 'api key', 1),
    ANALYSIS_TEXTS.credentialsDescription('Ledger API', 'api key', 12),
  ];

  for (const locale of ['es', 'fr', 'de'] as const) {
    it(`${locale}: every text is translated, its data and counts in place`, () => {
      const t = catalogs.translator(locale);
      const number = new Intl.NumberFormat(locale);
      for (const text of samples) {
        const said = t(text.id, text.values);
        expect(said).not.toBe(inEnglish(text));
        expect(said).not.toMatch(/[{}#]/);
        for (const value of Object.values(text.values ?? {}))
          expect(said).toContain(typeof value === 'number' ? number.format(value) : value);
      }
    });
  }

  it('a German reader reads them in German', () => {
    const t = catalogs.translator('de');
    const say = (text: AnalysisText) => t(text.id, text.values);
    expect(say(ANALYSIS_TEXTS.credentialsTitle('Ledger API'))).toBe('Zugangsdaten für Ledger API hinzufügen');
    expect(say(ANALYSIS_TEXTS.credentialsDescription('Ledger API', 'api key', 1))).toBe(
      'Ledger API verwendet die Authentifizierung api key, hat aber keine aktiven Zugangsdaten; ihr 1 aktiver Endpunkt kann nicht synchronisieren.',
    );
    expect(say(ANALYSIS_TEXTS.automationDescription(1234, 'budgets', 4, 'Vult'))).toBe(
      '1.234 Einträge in budgets wurden in 4 der letzten 6 Monate für Vult von Hand eingegeben, und kein aktiver Endpunkt füllt diese Tabelle.',
    );
  });
});
