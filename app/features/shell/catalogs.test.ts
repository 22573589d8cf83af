// The catalogs are complete and exact: every message the code uses is translated into every
// language with the same placeholders, and no catalog keeps a message nobody uses.
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findMessageUsage } from '../../platform/i18n/message-usage.ts';
import { LOCALES } from '../../platform/i18n/locales.ts';
import { CATALOG_FILES } from './catalogs.server.ts';
import { catalogTranslator, readCatalogFiles } from './catalog-files.server.ts';

const APP = fileURLToPath(new URL('../..', import.meta.url));
const usage = findMessageUsage(APP);
const catalogs: Record<string, Record<string, Record<string, string>>> = CATALOG_FILES;

/** The names of a compiled message's placeholders, with their kind ('count:plural', 'name'). */
function placeholders(compiled: unknown, into = new Set<string>()): Set<string> {
  if (!Array.isArray(compiled)) return into;
  for (const part of compiled) {
    if (Array.isArray(part) && typeof part[0] === 'string') {
      into.add(typeof part[1] === 'string' ? `${part[0]}:${part[1]}` : part[0]);
      if (part[2] && typeof part[2] === 'object')
        for (const option of Object.values(part[2])) placeholders(option, into);
    } else if (Array.isArray(part)) placeholders(part, into);
  }
  return into;
}

describe('message catalogs', () => {
  it('messages are literal English texts, never built at run time', () => {
    expect(usage.dynamic).toEqual([]);
  });

  it('the processes that read the catalogs from their files (server.ts, the worker) read the same ones', () => {
    expect(readCatalogFiles()).toEqual(CATALOG_FILES);
    expect(catalogTranslator()('de')('{count, plural, one {# minute} other {# minutes}}', { count: 2 })).toBe(
      '2 Minuten',
    );
  });

  it('every area that uses messages has a catalog', () => {
    expect([...usage.byArea.keys()].filter((area) => !(area in catalogs))).toEqual([]);
  });

  for (const [area, catalog] of Object.entries(catalogs)) {
    it(`${area}: holds exactly the messages its code uses`, () => {
      const used = usage.byArea.get(area) ?? new Map<string, string>();
      const shared = area === 'shell' ? new Map<string, string>() : (usage.byArea.get('shell') ?? new Map());
      const needed = [...used.keys()].filter((message) => !shared.has(message));
      const missing = needed.filter((message) => !(message in catalog)).map((m) => `${m}  (${used.get(m)})`);
      const unused = Object.keys(catalog).filter((message) => !needed.includes(message));
      expect({ missing, unused }).toEqual({ missing: [], unused: [] });
    });

    it(`${area}: every message is translated with the same placeholders`, () => {
      const wrong: string[] = [];
      for (const [message, translation] of Object.entries(catalog)) {
        const english = [...placeholders(compileMessage(message))].sort();
        for (const locale of LOCALES) {
          if (locale === 'en') continue;
          const text = translation[locale];
          if (typeof text !== 'string' || text.trim() === '') {
            wrong.push(`${locale} missing: ${message}`);
            continue;
          }
          const found = [...placeholders(compileMessage(text))].sort();
          if (found.join() !== english.join())
            wrong.push(`${locale} placeholders ${found.join()} ≠ ${english.join()}: ${message}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
