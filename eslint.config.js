// One lint setup for every workspace: type-aware rules where they catch real bugs.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { noFolderCycle } from './eslint-rules/no-folder-cycle.js';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'apps/server/web/**',
      'bench/results/**',
      '**/*.d.ts',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX, youyou: { rules: { 'no-folder-cycle': noFolderCycle } } },
    // Without a resolver that finds `./x.ts` and a parser for .ts files, no-cycle sees no edges at
    // all: it passed over the builder ↔ session and i18n ↔ preferences cycles.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver()],
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Our own modules are what the cycle rule is for: following packages from node_modules
      // parses their bundles (PGlite's overflowed the parser's stack on a fresh install), and the
      // web app's bundler packages reach into native packages the legacy resolver cannot load.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Every package and app: a folder cycle anywhere is the same tangle (issue 29).
      'youyou/no-folder-cycle': [
        'error',
        {
          roots: [
            'apps/cli/src',
            'apps/server/src',
            'apps/web/src',
            'packages/agent/src',
            'packages/client/src',
            'packages/contracts/src',
            'packages/providers/src',
            'packages/testing/src',
          ],
        },
      ],
    },
  },
  {
    // One folder per concept (STYLE.md): another folder is reached through its index.ts, so a
    // folder-level cycle is a file-level cycle that import-x/no-cycle sees.
    files: ['packages/agent/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.{1,2}/[^/]+/(?!index\\.ts$)[^/]+$',
              message: 'Import another folder of the package through its index.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
