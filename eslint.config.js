// Lint: the house rules that used to live in hand-written tests, and the boundaries between
// areas (docs/architecture.md). `npm run lint` runs in `npm test`; warnings fail it too.
import fs from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = fs
  .readdirSync(new URL('./app/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const TESTS = ['**/*.test.ts', '**/*.test.tsx', '**/*.test-d.ts', 'test/**', 'e2e/**', 'bench/**', '**/test-*.ts'];

/** A feature reaches another feature only through that feature's index; the platform and the ui reach none. */
const boundaryZones = [
  ...['platform', 'ui'].map((layer) => ({
    target: `./app/${layer}`,
    from: './app/features',
    message: `app/${layer} is shared by every area and imports none of them (docs/architecture.md).`,
  })),
  {
    target: './app/ui',
    from: './app/platform',
    // The reader's language and date format come from context, as every component's do (docs/languages.md).
    except: ['./lib', './i18n/i18n-context.tsx', './i18n/day-input.ts'],
    message: 'app/ui holds presentation pieces; it takes data as props instead of reading the platform.',
  },
  ...FEATURES.map((feature) => ({
    target: `./app/features/${feature}`,
    from: './app/features',
    except: [
      `./${feature}`,
      './resources.ts',
      ...FEATURES.filter((other) => other !== feature).flatMap((other) => [
        `./${other}/index.ts`,
        `./${other}/index.server.ts`,
        // The shell compiles every area's message catalog (docs/languages.md).
        ...(feature === 'shell' ? [`./${other}/messages.json`] : []),
      ]),
    ],
    message: 'Another area is reached through its index.ts (or index.server.ts) only.',
  })),
];

/** Query builders on a database handle: SQL lives in services (*.server.ts) and db/ only. */
const SQL_CALLS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'];

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'public/build/**',
      'node_modules/**',
      '.cache/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      // Control characters in patterns are always deliberate here: text that refuses or strips
      // them, tests that look for terminal colour codes.
      'no-control-regex': 'off',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Ajv documents its JSON Schema 2020-12 class under dist/ as a public entry point.
              group: ['**/dist/**', '*/dist/*', '!ajv/dist/2020.js'],
              message: 'Use the package’s public entry points, not its build output.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Configuration is read once, in app/platform/config.server.ts.',
        },
        {
          selector:
            'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"]',
          message: '`as unknown as` belongs in app/platform only, where a generic boundary is typed.',
        },
        {
          selector: `CallExpression[callee.property.name=/^(${SQL_CALLS.join('|')})$/]`,
          message: 'SQL lives in services (*.server.ts) and db/.',
        },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      // The rules of hooks; the React Compiler's extra rules assume a compiler we do not run.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrolling table or panel takes focus so a keyboard can scroll it; it is named as a region.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['region', 'tabpanel'], tags: [] }],
      'jsx-a11y/label-has-associated-control': ['error', { controlComponents: ['UserFilter'] }],
    },
  },
  {
    files: ['app/**/*.server.ts', 'db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Configuration is read once, in app/platform/config.server.ts.',
        },
        {
          selector:
            'TSAsExpression[expression.type="TSAsExpression"][expression.typeAnnotation.type="TSUnknownKeyword"]',
          message: '`as unknown as` belongs in app/platform only, where a generic boundary is typed.',
        },
      ],
    },
  },
  {
    files: ['app/platform/**', 'db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Configuration is read once, in app/platform/config.server.ts.',
        },
      ],
    },
  },
  // Migrations and the trigger builders work on tables by name, before and after each change of
  // schema: Kysely<any> is the documented type there.
  { files: ['db/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Configuration is read here (entry points hand their environment to it); tests, scripts and benchmarks set up whatever they need.
  {
    files: [
      'app/platform/config.server.ts',
      'server.ts',
      'worker/main.ts',
      'cli/runtime.ts',
      'scripts/**',
      'bin/**',
      'playwright.config.ts',
      ...TESTS,
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // Tests may reach across areas and into the platform's internals.
  { files: ['e2e/**'], rules: { 'no-empty-pattern': 'off' } }, // Playwright fixtures declare what they use: ({}, use) uses nothing.
  {
    files: TESTS,
    rules: {
      'import-x/no-restricted-paths': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  prettier,
);
