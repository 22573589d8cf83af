// The pseudo-locale walk (docs/languages.md): with `X-Pseudo-Locale: 1` every message of the
// catalogs shows marked ⟦…⟧, so any visible text outside the marks did not come from a catalog.
// Data (names, amounts, e-mail addresses) is marked translate="no" where it is shown; dates are
// in <time>; a chart's drawing holds only its axes' numbers and dates (its title and description
// are shown beside it).
import type { Page } from '@playwright/test';

export const PSEUDO_HEADERS = { 'X-Pseudo-Locale': '1' };

/** The visible texts of the page, and the labels read aloud, that no catalog message produced. */
export async function unmarkedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const OPEN = '⟦';
    const CLOSE = '⟧';
    const found = new Set<string>();
    // translate="no" holds for the element's content up to a nearer translate="yes" (docs/languages.md).
    const skipped = (element: Element | null): boolean =>
      !element ||
      element.closest('[translate]')?.getAttribute('translate') === 'no' ||
      element.closest('script, style, template, noscript, svg, time, [hidden], [aria-hidden="true"]') !== null;
    /** The characters of `text` outside any mark, given how many marks are open before it. */
    const outside = (text: string, depth: number): string => {
      let rest = '';
      for (const char of text) {
        if (char === OPEN) depth += 1;
        else if (char === CLOSE) depth = Math.max(0, depth - 1);
        else rest += depth === 0 ? char : ' ';
      }
      return rest;
    };
    const hasWords = (text: string) => /\p{L}{2,}/u.test(text);
    // A message with markup inside (a link, <code>) spans several text nodes: a node's marks are
    // counted from the start of its block.
    const BLOCK = 'p, li, td, th, dd, dt, label, h1, h2, h3, h4, summary, button, legend, figcaption, caption, option';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || skipped(parent) || parent.getClientRects().length === 0) continue;
      const text = node.textContent ?? '';
      if (!hasWords(text)) continue;
      const block = parent.closest(BLOCK) ?? parent;
      let before = '';
      const inBlock = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
      for (let other = inBlock.nextNode(); other && other !== node; other = inBlock.nextNode())
        before += other.textContent ?? '';
      const depth = [...before].reduce(
        (open, c) => (c === OPEN ? open + 1 : c === CLOSE ? Math.max(0, open - 1) : open),
        0,
      );
      if (hasWords(outside(text, depth))) found.add(text.trim());
    }
    for (const element of document.body.querySelectorAll('[placeholder], [aria-label], [title], img[alt]')) {
      if (skipped(element)) continue;
      for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
        const value = element.getAttribute(name);
        if (value && hasWords(outside(value, 0))) found.add(`${name}="${value.trim()}"`);
      }
    }
    return [...found];
  });
}
