import { describe, expect, it } from 'vitest';
import { isProductReason, REASONS, reasonText, reasonWith } from './audit-reasons.ts';
import { createTranslate } from './i18n/messages.ts';

const spanish = createTranslate('es', {
  'User updated': 'Usuario actualizado',
  'Restored version {version}': ['Versión ', ['version'], ' restaurada'],
  'CSV import #{id}: {file}': ['Importación CSV n.º ', ['id'], ': ', ['file']],
});

describe('audit reasons', () => {
  it("reads the product's stored English back into the reader's words; a typed reason stays as written", () => {
    expect(reasonText(REASONS.userUpdated, spanish)).toBe('Usuario actualizado');
    const restored = reasonWith(REASONS.restoredVersion, { version: 3 });
    expect(restored).toBe('Restored version 3');
    expect(reasonText(restored, spanish)).toBe('Versión 3 restaurada');
    // A file name may hold anything, a colon too.
    const imported = reasonWith(REASONS.csvImport, { id: 12, file: 'budgets: Q1 (final).csv' });
    expect(imported).toBe('CSV import #12: budgets: Q1 (final).csv');
    expect(reasonText(imported, spanish)).toBe('Importación CSV n.º 12: budgets: Q1 (final).csv');
    for (const typed of ['Quarter close adjustment', 'Restored version', 'User updated twice']) {
      expect(reasonText(typed, spanish)).toBe(typed);
      expect(isProductReason(typed)).toBe(false);
    }
    expect(isProductReason(restored)).toBe(true);
  });
});
