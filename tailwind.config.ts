import type { Config } from 'tailwindcss';
import colors from 'tailwindcss/colors';
import plugin from 'tailwindcss/plugin';
import fs from 'node:fs';
import { iconRules, spriteSymbols } from './app/ui/icon-css.ts';
import { columnLabelRules } from './app/ui/table/column-labels.ts';

// Appearance settings (docs/decisions.md) are classes on <html> set by the server render:
//   dark           the dark theme
//   theme-system   follow the operating system (prefers-color-scheme), no script, no flash
//   compact-sidebar, reduce-motion
// The slate scale is read through CSS variables, so the whole app (written with slate greys on
// white) turns dark by swapping the scale, without a dark: variant on every element.
const SHADES = ['50', '100', '200', '300', '400', '500', '600', '700', '800', '900', '950'] as const;
const rgb = (hex: string) => {
  const n = parseInt(hex.slice(1), 16);
  return `${(n >> 16) & 255} ${(n >> 8) & 255} ${n & 255}`;
};
const lightVars = Object.fromEntries(SHADES.map((s) => [`--slate-${s}`, rgb(colors.slate[s])]));
const darkVars = Object.fromEntries(
  SHADES.map((s, i) => [`--slate-${s}`, rgb(colors.slate[SHADES[SHADES.length - 1 - i]])]),
);

/** Rules of the dark theme, applied under `html.dark` and under `html.theme-system` in a dark OS. */
function darkRules(root: string): Record<string, Record<string, string>> {
  return {
    [root]: { ...darkVars, colorScheme: 'dark', backgroundColor: colors.slate[950], color: colors.slate[100] },
    [`${root} .bg-white, ${root} .btn-secondary, ${root} .btn-tool, ${root} .sidebar, ${root} .list-table > tbody, ${root} .app-header`]:
      {
        backgroundColor: colors.slate[900],
      },
    [`${root} .hover\\:bg-white:hover`]: { backgroundColor: colors.slate[800] },
    // The middle grey keeps its value when the scale flips; as text on the dark surfaces it
    // would be under 4.5:1, so secondary text takes the next lighter shade.
    [`${root} .text-slate-500, ${root} .app-footer, ${root} .sidebar summary, ${root} .pager > [aria-disabled]`]: {
      color: colors.slate[400],
    },
    // Coloured text and icon buttons on the plain surfaces (user-management row actions, delete).
    [`${root} .text-orange-700`]: { color: colors.orange[300] },
    [`${root} .text-amber-700`]: { color: colors.amber[300] },
    [`${root} .text-green-700`]: { color: colors.green[300] },
    [`${root} .text-indigo-700`]: { color: colors.indigo[300] },
    [`${root} .text-red-600, ${root} .row-actions > button`]: { color: colors.red[400] },
    [`${root} .bg-blue-50`]: { backgroundColor: 'rgb(30 58 138 / 0.45)' },
    [`${root} .text-blue-800, ${root} .text-blue-900, ${root} .text-blue-700, ${root} .row-actions > a`]: {
      color: colors.blue[300],
    },
    [`${root} .bg-red-50`]: { backgroundColor: 'rgb(127 29 29 / 0.45)' },
    [`${root} .text-red-900, ${root} .text-red-700`]: { color: colors.red[300] },
    [`${root} .bg-green-50, ${root} .bg-green-100`]: { backgroundColor: 'rgb(20 83 45 / 0.5)' },
    [`${root} .text-green-900, ${root} .text-green-800`]: { color: colors.green[300] },
    [`${root} .bg-amber-50`]: { backgroundColor: 'rgb(120 53 15 / 0.45)' },
    [`${root} .text-amber-900`]: { color: colors.amber[300] },
    [`${root} .bg-blue-100`]: { backgroundColor: 'rgb(30 64 175 / 0.5)' },
    // Overlays stay dark veils (the flipped scale would make them light).
    [`${root} .bg-slate-900\\/40`]: { backgroundColor: 'rgb(0 0 0 / 0.6)' },
  };
}

const sprite = fs.readFileSync(new URL('./app/ui/icons.svg', import.meta.url), 'utf8');

export default {
  content: ['./app/**/*.{ts,tsx}'],
  // Icon classes are made from names (`i-${name}`), which the content scan cannot see.
  safelist: [...spriteSymbols(sprite).keys()].map((name) => `i-${name}`),
  // dark: utilities follow the same classes as the rules below.
  darkMode: ['variant', ['&:is(.dark *)', '@media (prefers-color-scheme: dark) { &:is(.theme-system *) }']],
  theme: {
    extend: {
      colors: {
        slate: Object.fromEntries(SHADES.map((s) => [s, `rgb(var(--slate-${s}) / <alpha-value>)`])),
      },
    },
  },
  plugins: [
    plugin(({ addBase }) => {
      addBase({ ':root': lightVars });
      addBase(iconRules(sprite));
      addBase(darkRules('html.dark'));
      addBase({ '@media (prefers-color-scheme: dark)': darkRules('html.theme-system') });
      addBase({
        // Compact sidebar: a narrower navigation with tighter rows.
        'html.compact-sidebar nav[aria-label="Main navigation"]': { width: '13rem', padding: '0.5rem' },
        'html.compact-sidebar nav[aria-label="Main navigation"] a': {
          paddingTop: '0.125rem',
          paddingBottom: '0.125rem',
          fontSize: '0.8125rem',
        },
        'html.compact-sidebar nav[aria-label="Main navigation"] details': { marginBottom: '0.25rem' },
        // A fit-table's stacked rows: each cell's heading (app/ui/table/column-labels.ts).
        '@media not all and (min-width: 768px)': columnLabelRules(),
        // Reduced animations: no transitions or animations anywhere.
        'html.reduce-motion *, html.reduce-motion *::before, html.reduce-motion *::after': {
          animationDuration: '0s !important',
          animationIterationCount: '1 !important',
          transitionDuration: '0s !important',
          scrollBehavior: 'auto !important',
        },
      });
    }),
  ],
} satisfies Config;
