// Lint with zero warnings (npm run lint). The import rules enforce the layers of docs/architecture.md:
// common ← lib/components ← features ← app; client and server never import each other, and
// features do not import each other (only app/routes combines them).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Every folder under features/ is a feature: one added later is covered without a list to keep.
const featureNames = readdirSync(new URL('./src/client/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', 'data/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { import: importPlugin, 'react-hooks': reactHooks },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' }, node: true },
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            // common is shared by both sides: it imports neither.
            { target: './src/common', from: './src/client', message: 'src/common must not import client code' },
            { target: './src/common', from: './src/server', message: 'src/common must not import server code' },
            // client and server never import each other.
            { target: './src/client', from: './src/server', message: 'the client must not import server code' },
            { target: './src/server', from: './src/client', message: 'the server must not import client code' },
            // shared client code does not know features or app.
            {
              target: ['./src/client/lib', './src/client/components'],
              from: ['./src/client/features', './src/client/app'],
              message: 'lib/ and components/ must not import features/ or app/',
            },
            // features do not import app, nor each other.
            {
              target: './src/client/features',
              from: './src/client/app',
              except: ['./hooks.ts', './store-types.ts'],
              message: 'features may use app/hooks only',
            },
            ...featureNames.map((name) => ({
              target: `./src/client/features/${name}`,
              from: './src/client/features',
              except: [`./${name}`],
              message: 'features do not import each other; combine them in app/routes',
            })),
          ],
        },
      ],
    },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: {
      'import/no-restricted-paths': 'off',
      // Playwright's waitForFunction does not await a promise: it takes the promise as a truthy
      // answer and returns at once. Asynchronous checks go through waitForCheck (test/e2e/harness).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='waitForFunction'] > :matches(ArrowFunctionExpression, FunctionExpression)[async=true]",
          message: 'waitForFunction does not await an async check: use waitForCheck (test/e2e/harness)',
        },
        {
          selector: "CallExpression[callee.property.name='waitForFunction'] > ArrowFunctionExpression[body.type='NewExpression'][body.callee.name='Promise']",
          message: 'waitForFunction does not await a promise: use waitForCheck (test/e2e/harness)',
        },
      ],
    },
  },
  {
    // The wire schemas are the server's; the client takes only their types, so TypeBox and the
    // schema values stay out of its bundle; likewise the scheme's form kinds. React's deferring
    // hooks run on Preact (scripts/react-on-preact.mjs), where they defer nothing.
    files: ['src/client/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react',
              importNames: ['useDeferredValue', 'useTransition', 'startTransition'],
              message: 'on Preact these defer nothing: useValueAfterPaint (lib/use-after-paint.ts) or afterNextPaint (lib/idle.ts)',
            },
          ],
          patterns: [
            {
              group: ['**/common/schemas/wire', '@sinclair/typebox'],
              allowTypeImports: true,
              message: 'the client imports only types from the wire schemas (import type)',
            },
            {
              // The scheme's content comes with config.json: in the bundle it would be a phone's
              // first download twice.
              group: ['**/common/scheme/form-kinds'],
              allowTypeImports: true,
              message: "the client finds form kinds among config.forms (common/scheme/kind-lookup), not in the scheme's own list",
            },
          ],
        },
      ],
    },
  },
  {
    // A link to a screen comes from the route table's names (lib/links.ts `routeHref`), typed by
    // its parameters, never from a hand-built '#/…' string that a renamed route would leave behind.
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['src/client/lib/links.ts', 'src/client/lib/auth/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Literal[value=/^#\\//]', message: "build the link with routeHref (lib/links.ts), not a '#/…' string" },
        {
          selector: 'TemplateLiteral > TemplateElement:first-child[value.raw=/^#\\//]',
          message: "build the link with routeHref (lib/links.ts), not a '#/…' string",
        },
      ],
    },
  },
  {
    // Tests live under test/ (jest looks only there): one in src/ would never run.
    files: ['src/**/*.test.{ts,tsx}', 'src/**/__tests__/**'],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: 'tests live under test/, where jest finds them' }] },
  },
  {
    // Routes translate HTTP to calls of repositories and services; SQL lives in those.
    files: ['src/server/routes/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message: 'no SQL in route files: put the query in a repository',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'no SQL in route files: put the query in a repository' },
      ],
    },
  },
  {
    // A feature's index.ts is its public face: code outside the feature imports only that.
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['src/client/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/features/*/*'], message: "import the feature's index (features/<name>), not its insides" }] },
      ],
    },
  },
  {
    // The access rules are below the repositories: repositories apply them, never the reverse.
    files: ['src/server/access/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/repositories/*'], message: 'access rules do not use repositories (repositories apply the rules)' }] },
      ],
    },
  },
);
