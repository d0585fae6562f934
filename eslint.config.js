import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // DESIGN.md §2: a web feature does not import another feature (shared pieces live in src/lib
    // and src/components; src/app composes features), and a server service reaches another
    // service only through that service's index.ts.
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts'],
    // Server tests and test helpers wire several services together on purpose.
    ignores: ['apps/server/src/**/*.test.ts', 'apps/server/src/test/**'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': import.meta.dirname,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'import/resolver': {
        typescript: { project: ['apps/web/tsconfig.json', 'apps/server/tsconfig.json'], noWarnOnMultipleProjects: true },
      },
      'boundaries/elements': [
        { type: 'web-app', pattern: 'apps/web/src/app', partialMatch: false },
        { type: 'web-feature', pattern: 'apps/web/src/features/*', capture: ['feature'], partialMatch: false },
        { type: 'web-shared', pattern: 'apps/web/src/{lib,components}', partialMatch: false },
        { type: 'server-service', pattern: 'apps/server/src/services/*', capture: ['service'], partialMatch: false },
      ],
      'boundaries/files': [{ category: 'service-interface', pattern: 'apps/server/src/services/*/index.ts' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'web-feature' } },
              disallow: { to: { element: { type: 'web-feature' } } },
              message:
                'A web feature does not import another feature: move the shared piece to src/lib or src/components, or compose the features in src/app.',
            },
            {
              from: { element: { type: 'web-shared' } },
              disallow: { to: { element: { type: 'web-feature' } } },
              message: 'src/lib and src/components are shared by every feature and import none.',
            },
            {
              from: { element: { type: 'server-service' } },
              disallow: { to: { element: { type: 'server-service' } } },
              message:
                "A server service reaches another service only through that service's index.ts (or shares the piece through src/platform).",
            },
            // The last matching policy wins: a service's index.ts is its interface to the others.
            {
              from: { element: { type: 'server-service' } },
              allow: { to: { file: { categories: 'service-interface' } } },
            },
          ],
        },
      ],
    },
  },
);
