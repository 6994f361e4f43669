// Lint config (flat). `npm run lint` must pass with zero warnings: CI runs it with --max-warnings 0.
// TypeScript under src/ is linted with type information: the project service picks tsconfig.json for the server
// and src/page/tsconfig.json (DOM lib) for the page scripts. Scripts, benchmarks and tests are plain ESM
// JavaScript and get the core recommended rules.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/node_modules/**', 'bench/results/**', 'test-output/**', 'firefox-use-output/**', 'profiles/**'] },
  {
    files: ['src/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // A floating promise in a server loses its error; every one must be awaited, returned or marked `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      // Listeners and callbacks from Node and ws are typed as returning void; async ones are common and handled.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Template literals with numbers are everywhere in messages; objects and unknowns still fail.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // Empty catch blocks are how this code says "the process/file is gone already"; they carry a comment.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Rejecting with a caught `unknown` passes the original error on unchanged, which is what we want.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // The SDK's request handlers and our tool handlers are async by contract even when one has nothing to await.
      '@typescript-eslint/require-await': 'off',
      // `row[i]!` marks reads the code relies on being there; many predate noUncheckedIndexedAccess and say so
      // twice. Not worth churn in every file.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // File-name and output sanitizers match control characters on purpose.
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
    },
  },
  {
    files: ['src/page/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-empty': ['error', { allowEmptyCatch: true }],
      'prefer-const': 'error',
    },
  },
  {
    files: ['test/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.mocha } },
  },
  {
    // Fixture pages and code sent into Firefox run in a browser, not in Node.
    files: ['test/fixtures/**/*.js', 'bench/fixtures/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
);
