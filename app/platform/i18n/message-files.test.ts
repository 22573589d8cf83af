import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compileCatalogs, MESSAGE_FILES_PATH } from './catalog.server.ts';
import { messagesOf, REGISTRY_GLOBAL } from './message-files.ts';

const FILES = {
  shell: {
    Save: { es: 'Guardar', fr: 'Enregistrer', de: 'Speichern' },
    '{count, plural, one {# row} other {# rows}}': {
      es: '{count, plural, one {# fila} other {# filas}}',
      fr: '{count, plural, one {# ligne} other {# lignes}}',
      de: '{count, plural, one {# Zeile} other {# Zeilen}}',
    },
  },
  finance: { Budget: { es: 'Presupuesto', fr: 'Budget', de: 'Budget' } },
};

/** Runs a file's script as a browser would, and returns what it registered. */
function run(script: string): Record<string, unknown> {
  const self: Record<string, unknown> = {};
  vm.runInNewContext(script, { self });
  return self[REGISTRY_GLOBAL] as Record<string, unknown>;
}

describe('message files', () => {
  const catalogs = compileCatalogs(FILES);

  it('a document names one file per area in its language, under a name that changes with its content', () => {
    const files = catalogs.messageFiles('es', ['shell', 'finance']);
    expect(files.map((f) => f.key)).toEqual(['es/shell', 'es/finance']);
    for (const file of files)
      expect(file.src).toMatch(new RegExp(`^${MESSAGE_FILES_PATH}/es-\\w+\\.[0-9a-f]{12}\\.js$`));
    expect(catalogs.messageFiles('es', ['shell', 'finance'])).toBe(files);
    expect(catalogs.messageFiles('en', ['shell', 'nowhere']).map((f) => f.key)).toEqual(['en/shell']);
    expect(catalogs.messageFiles('en', ['shell'], true).map((f) => f.key)).toEqual(['pseudo/shell']);

    const changed = compileCatalogs({
      ...FILES,
      finance: { Budget: { es: 'Presupuestos', fr: 'Budget', de: 'Budget' } },
    });
    expect(changed.messageFiles('es', ['finance'])[0]!.src).not.toBe(catalogs.messageFiles('es', ['finance'])[0]!.src);
    expect(changed.messageFiles('de', ['finance'])[0]!.src).toBe(catalogs.messageFiles('de', ['finance'])[0]!.src);
  });

  it('a file’s script registers exactly the messages the browser needs for its area and language', () => {
    const [shell] = catalogs.messageFiles('es', ['shell']);
    const script = catalogs.messageFileScript(shell!.src.slice(MESSAGE_FILES_PATH.length + 1));
    expect(run(script!)).toEqual({ 'es/shell': catalogs.forBrowser('es', ['shell']) });
    const [english] = catalogs.messageFiles('en', ['shell']);
    // English sends only what a plain {name} substitution would get wrong.
    expect(Object.keys(run(catalogs.messageFileScript(english!.src.split('/').pop()!)!)['en/shell'] as object)).toEqual(
      ['{count, plural, one {# row} other {# rows}}'],
    );
    expect(catalogs.messageFileScript('es-shell.000000000000.js')).toBeUndefined();
    expect(catalogs.messageFileScript('../etc/passwd')).toBeUndefined();
  });

  it('the messages of a document’s files are merged once, and only once all are there', () => {
    const files = [
      { key: 'xx/one', src: '/i18n/xx-one.js' },
      { key: 'xx/two', src: '/i18n/xx-two.js' },
    ];
    const registry = (globalThis as Record<string, unknown>)[REGISTRY_GLOBAL] as Record<string, unknown>;
    registry['xx/one'] = { A: ['a'] };
    expect(messagesOf(files)).toEqual({ A: ['a'] });
    registry['xx/two'] = { B: ['b'] };
    const merged = messagesOf(files);
    expect(merged).toEqual({ A: ['a'], B: ['b'] });
    expect(messagesOf(files)).toBe(merged);
    expect(messagesOf([])).toEqual({});
  });
});
