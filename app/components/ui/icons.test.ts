import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ICON_NAMES } from './icons.tsx';

const sprite = fs.readFileSync(new URL('./icons.svg', import.meta.url), 'utf8');
const symbols = [...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]);

describe('icon sprite', () => {
  it('has a symbol for every icon name, and none unused', () => {
    expect([...symbols].sort()).toEqual([...ICON_NAMES].sort());
  });

  it('draws every symbol in the current text colour on a 24×24 box', () => {
    for (const symbol of sprite.match(/<symbol[\s\S]*?<\/symbol>/g) ?? []) {
      expect(symbol).toContain('viewBox="0 0 24 24"');
      expect(symbol).toContain('stroke="currentColor"');
    }
  });
});
