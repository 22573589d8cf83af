// The Recommendations and Performance tabs as the server renders them for a reader: the texts
// the analysis wrote from live figures come as messages, said in the reader's language with
// their data in place, and in the pseudo-locale every one of them is marked as a message.
import { describe, expect, it } from 'vitest';
import { compileCatalogs, PSEUDO_MARKS } from '../../platform/i18n/catalog.server.ts';
import type { Locale } from '../../platform/i18n/locales.ts';
import { IntegrationsScreen, type IntegrationsData } from './api-integrations-screen.tsx';
import { ANALYSIS_TEXTS, type PerformanceFindings, type RecommendationFinding } from './integration-analysis.server.ts';
import messages from './messages.json';
import { renderScreen } from '../../../test/render-screen.tsx';

const catalogs = compileCatalogs({ integrations: messages });

const CREDENTIALS: RecommendationFinding = {
  id: 'credentials-1',
  title: ANALYSIS_TEXTS.credentialsTitle('Ledger API'),
  companyName: null,
  priority: 'critical',
  type: 'configuration',
  confidence: 100,
  description: ANALYSIS_TEXTS.credentialsDescription('Ledger API', 'api key', 2),
  reasoning: { id: 'Read from the source and its credentials.' },
  potentialBenefits: [{ id: 'Its endpoints can sync' }],
  estimatedImpact: { timesSaved: 0, costReduction: 0, dataAccuracy: 0, automationLevel: 0 },
  suggestedActions: [{ id: 'Open the Credentials tab and add the key the source expects' }],
  apiEndpoints: [],
};

const AUTOMATION: RecommendationFinding = {
  id: 'automate-budgets-Vult',
  title: ANALYSIS_TEXTS.automationTitle('budgets'),
  companyName: 'Vult',
  priority: 'medium',
  type: 'automation',
  confidence: 67,
  description: ANALYSIS_TEXTS.automationDescription(1234, 'budgets', 4, 'Vult'),
  reasoning: ANALYSIS_TEXTS.automationReasoning('2026-06-01', ['2026-06', '2026-07']),
  potentialBenefits: [{ id: 'Less typing and fewer typing errors' }],
  estimatedImpact: { timesSaved: 1.5, costReduction: 4, dataAccuracy: 100, automationLevel: 100 },
  suggestedActions: [
    { id: 'Add an API source for the system these figures come from' },
    ANALYSIS_TEXTS.automationEndpoint('budgets'),
  ],
  apiEndpoints: [
    { method: 'GET', endpoint: '/budgets', direction: 'inbound', targetTable: 'budgets', frequency: 'daily' },
  ],
};

const PERFORMANCE: PerformanceFindings = {
  totalRequests: 14,
  successRate: 57.1,
  avgResponseTime: 4429,
  performanceScore: 52,
  scoreFormula: 'round(0.7 × success rate + 0.3 × speed); speed is 100 at 1 s or less, 0 at 10 s or more',
  issues: [
    {
      severity: 'high',
      type: 'failing',
      description: ANALYSIS_TEXTS.failingIssue(1),
      affectedEndpoints: ['bad'],
      recommendation: {
        id: 'Open the sync logs for the error, then check the source URL, its credentials and the mapping',
      },
    },
    {
      severity: 'medium',
      type: 'slow',
      description: ANALYSIS_TEXTS.slowIssue(2),
      affectedEndpoints: ['bad', 'slow'],
      recommendation: { id: 'Ask for smaller pages (pagination size) or sync less often' },
    },
  ],
  runs: 7,
  windowDays: 30,
};

const BASE: IntegrationsData = {
  tab: 'recommendations',
  recommendations: null,
  performance: null,
  timeline: null,
  logs: null,
  sources: null,
};

async function render(data: IntegrationsData, locale: Locale, pseudo = false): Promise<string> {
  const html = await renderScreen(<IntegrationsScreen data={data} answer={undefined} />, {
    url: `/api-integrations?tab=${data.tab}`,
    locale,
    areas: ['integrations'],
    pseudo,
  });
  return html.replace(/&quot;/g, '"');
}

const recommendations = {
  ...BASE,
  recommendations: { items: [CREDENTIALS, AUTOMATION], page: { offset: 0, size: 10, total: 2 } },
};
const performance = { ...BASE, tab: 'performance' as const, performance: PERFORMANCE, timeline: [] };

describe('the analysis tabs in the reader’s language', () => {
  it('English: the texts the /api writes', async () => {
    const html = await render(recommendations, 'en');
    expect(html).toContain('>Add credentials for Ledger API</h3>');
    expect(html).toContain(
      '>Ledger API uses api key authentication but has no active credential; its 2 active endpoints cannot sync.</p>',
    );
    // A screen spells counts in its reader's number format.
    expect(html).toContain(
      '>1,234 budgets entries were typed in by hand in 4 of the last 6 months for Vult, and no active endpoint fills this table.</p>',
    );
    expect(html).toContain('>Add an inbound endpoint targeting budgets with a mapping and a daily frequency</li>');
    const issues = await render(performance, 'en');
    expect(issues).toContain('1 endpoint failed in 2 or more of their last 5 runs');
    expect(issues).toContain('2 endpoints answered in more than 5 seconds on average');
  });

  it('German: recommendations and issues translated, data and counts in place', async () => {
    const html = await render(recommendations, 'de');
    expect(html).toContain('>Zugangsdaten für Ledger API hinzufügen</h3>');
    expect(html).toContain(
      '>Ledger API verwendet die Authentifizierung api key, hat aber keine aktiven Zugangsdaten; ihre 2 aktiven Endpunkte können nicht synchronisieren.</p>',
    );
    expect(html).toContain('>Tabelle budgets automatisch importieren</h3>');
    expect(html).toContain(
      '>1.234 Einträge in budgets wurden in 4 der letzten 6 Monate für Vult von Hand eingegeben, und kein aktiver Endpunkt füllt diese Tabelle.</p>',
    );
    expect(html).toContain(
      '>Aus dem Audit-Protokoll gezählt: Anlagen durch angemeldete Benutzer seit 2026-06-01, in 2026-06, 2026-07.</p>',
    );
    expect(html).toContain('>Aus der Quelle und ihren Zugangsdaten gelesen.</p>');
    expect(html).not.toContain('Add credentials');
    expect(html).not.toContain('authentication');
    const issues = await render(performance, 'de');
    expect(issues).toContain('1 Endpunkt ist bei 2 oder mehr seiner letzten 5 Läufe fehlgeschlagen');
    expect(issues).toContain('2 Endpunkte haben im Durchschnitt mehr als 5 Sekunden für ihre Antwort gebraucht');
    expect(issues).not.toMatch(/endpoints? (failed|answered)/);
  });

  it('Spanish and French: translated too', async () => {
    expect(await render(recommendations, 'es')).toContain('>Añadir credenciales para Ledger API</h3>');
    expect(await render(recommendations, 'fr')).toContain('>Ajouter des identifiants pour Ledger API</h3>');
  });

  it('the pseudo-locale marks every text the analysis wrote as a message', async () => {
    const [open, close] = PSEUDO_MARKS;
    const html = await render(recommendations, 'en', true);
    for (const finding of [CREDENTIALS, AUTOMATION]) {
      for (const text of [finding.title, finding.description, finding.reasoning, ...finding.suggestedActions]) {
        const english = catalogs.translator('en')(text.id, text.values);
        expect(html).toContain(`>${open}${english}${close}<`);
      }
    }
    const issues = await render(performance, 'en', true);
    expect(issues).toContain(`${open}1 endpoint failed in 2 or more of their last 5 runs${close}`);
  });
});
