import fs from 'node:fs';
import postcss from 'postcss';
import tailwindcss from 'tailwindcss';
import { describe, expect, it } from 'vitest';
import tailwindConfig from '../../tailwind.config.ts';
import { iconRules, iconUrl, spriteSymbols } from './icon-css.ts';
import { ICON_NAMES } from './icons.tsx';

const sprite = fs.readFileSync(new URL('./icons.svg', import.meta.url), 'utf8');
const symbols = [...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]);

describe('icon sprite', () => {
  it('has a symbol for every icon name, and none unused', () => {
    expect([...symbols].sort()).toEqual([...ICON_NAMES].sort());
    expect([...spriteSymbols(sprite).keys()].sort()).toEqual([...ICON_NAMES].sort());
  });

  it('draws every symbol in the current text colour on a 24×24 box', () => {
    for (const symbol of sprite.match(/<symbol[\s\S]*?<\/symbol>/g) ?? []) {
      expect(symbol).toContain('viewBox="0 0 24 24"');
      expect(symbol).toContain('stroke="currentColor"');
    }
  });
});

describe('icons as CSS masks', () => {
  it('makes each symbol a standalone SVG document in a data URL', () => {
    const body = spriteSymbols(sprite).get('trash')!;
    const url = iconUrl(body);
    const svg = decodeURIComponent(url.slice('url("data:image/svg+xml,'.length, -'")'.length));
    expect(svg).toBe(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>${body.replace(/"/g, "'")}</svg>`);
    // Inside the quoted URL: no quote, and nothing a URL or CSS would read differently.
    expect(url.slice('url("'.length, -'")'.length)).not.toMatch(/[#<>"\n]/);
  });

  it('gives every icon the shared box and its own mask', () => {
    const rules = iconRules(sprite);
    const shared = Object.keys(rules)[0].split(',');
    for (const name of ICON_NAMES) {
      expect(shared).toContain(`.i-${name}`);
      expect(rules[`.i-${name}`]['--icon']).toMatch(/^url\("data:image\/svg\+xml,/);
    }
  });

  it('are all in the built stylesheet, although no source names them whole', async () => {
    // Tailwind leaves out base rules whose classes it does not find in the sources; the config's
    // safelist keeps them (`i-${name}` is made at run time).
    const { css } = await postcss([tailwindcss(tailwindConfig)]).process('@tailwind base;', { from: undefined });
    for (const name of ICON_NAMES)
      expect(css).toMatch(new RegExp(`\\.i-${name}\\s*\\{\\s*--icon: url\\("data:image/svg\\+xml,`));
    expect(css).toMatch(/\.sidebar summary::after\s*\{\s*content: "";\s*--icon: url/);
  });
});
