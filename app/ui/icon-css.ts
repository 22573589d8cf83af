// The app's icons as CSS (a Tailwind plugin's rules, built into the one stylesheet): each icon of
// icons.svg becomes a class whose mask is that icon, painted in the current text colour. A page
// then carries `<i class="i-pencil"></i>` per icon (~25 bytes) instead of an inline SVG with a
// <use> of the sprite (~95 bytes); the list page has ~40 icons. Sizes come from classes
// (h-4 w-4) or the surrounding rules; the default is 1.25rem, the old default `h-5 w-5`.

/** The symbols of the sprite: name → the SVG markup inside <symbol>. */
export function spriteSymbols(sprite: string): Map<string, string> {
  const symbols = new Map<string, string>();
  for (const match of sprite.matchAll(/<symbol id="([^"]+)" viewBox="0 0 24 24">([\s\S]*?)<\/symbol>/g)) {
    symbols.set(match[1], match[2].trim());
  }
  return symbols;
}

/** One icon as a `url(…)` of a standalone SVG document (quotes and reserved characters escaped). */
export function iconUrl(body: string): string {
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>${body.replace(/"/g, "'")}</svg>`;
  const escaped = svg.replace(/[%#<>\n\r\t]/g, (c) => encodeURIComponent(c));
  return `url("data:image/svg+xml,${escaped}")`;
}

/**
 * Extra selectors drawn with an icon, as pseudo-elements: the sidebar's group chevrons, and a list
 * row's edit link and delete button (ten rows a page: no <i> in each).
 */
const PSEUDO_ICONS: Record<string, string> = {
  '.sidebar summary::after': 'chevron',
  '.row-actions > a::before': 'pencil',
  '.row-actions > button::before': 'trash',
};

/** CSS-in-JS rules for Tailwind's addBase: the shared box, then one mask per icon. */
export function iconRules(sprite: string): Record<string, Record<string, string>> {
  const symbols = spriteSymbols(sprite);
  const selectors = [...[...symbols.keys()].map((name) => `.i-${name}`), ...Object.keys(PSEUDO_ICONS)];
  const rules: Record<string, Record<string, string>> = {
    [selectors.join(',')]: {
      display: 'block',
      flexShrink: '0',
      width: '1.25rem',
      height: '1.25rem',
      backgroundColor: 'currentColor',
      WebkitMask: 'var(--icon) center / 100% 100% no-repeat',
      mask: 'var(--icon) center / 100% 100% no-repeat',
      // High-contrast modes would otherwise replace the background and hide the icon.
      forcedColorAdjust: 'none',
    },
  };
  for (const [name, body] of symbols) rules[`.i-${name}`] = { '--icon': iconUrl(body) };
  for (const [selector, name] of Object.entries(PSEUDO_ICONS)) {
    const body = symbols.get(name);
    if (body == null) throw new Error(`icons.svg has no symbol "${name}"`);
    rules[selector] = { content: '""', '--icon': iconUrl(body) };
  }
  return rules;
}
