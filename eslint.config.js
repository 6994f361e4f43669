// Lint config (flat). `npm run lint` must pass with zero warnings: CI runs it with --max-warnings 0.
// TypeScript under src/ is linted with type information: the project service picks tsconfig.json for the server
// and src/page/tsconfig.json (DOM lib) for the page scripts. Scripts, benchmarks and tests are plain ESM
// JavaScript and get the core recommended rules.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

// The layers (docs/architecture.md): cli -> mcp -> tools -> browser -> bidi, each importing only layers below it.
// Only src/browser speaks BiDi: the connection, its types and its errors stay there. src/page runs in Firefox: the
// server shares only src/contract with it. TypeScript has no package-private, so these rules are the fence.
const BIDI_FENCE = {
  patterns: [
    { group: ['**/bidi/*', '**/bidi/**'], message: 'Only src/browser talks to the BiDi connection: add a method to Tab or Browser instead.' },
    { group: ['webdriver-bidi-protocol'], message: 'BiDi types stay in src/browser: use (or add) a browser-layer type.' },
  ],
};
const NO_RAW_BIDI = {
  selector: "MemberExpression[property.name='bidi']",
  message: 'Only src/browser talks to the BiDi connection: add a method to Tab or Browser instead.',
};
const PAGE_FENCE = { group: ['**/page/*', '**/page/**'], message: 'The page scripts run in Firefox: src/browser injects their bundle; the server shares only src/contract with them.' };
// src/browser is rooms (engine, launch, group, observe, tab), each with one entrance: code above the browser layer
// imports a room's index.ts (or browser.ts, manager.ts, bidi-errors.ts at the top), never a file inside a room.
const ROOM_FENCE = {
  regex: '/browser/[a-z-]+/(?!index\\.js$)',
  message: "Import the browser room's entrance (src/browser/<room>/index.ts), not a file inside it; export it there if it belongs to the room's face.",
};
// Above src/browser nothing names a page operation: each is a typed function of the tab room (page-queries.ts).
const NO_PAGE_CALL = {
  selector: "MemberExpression[property.name='callPage']",
  message: 'Page operations are called inside src/browser only: use (or add) a typed function of the tab room (src/browser/tab/page-queries.ts: pageInfo, fileInputs, setFieldValue, waitInPage, ...).',
};
// Tools hold a TabHandle (src/browser/tab/handle.ts), not the Tab and its browser-side mutators (markClosed, setDialog, performActions).
const TAB_FENCE = {
  group: ['**/browser/tab/index.js'],
  importNames: ['Tab'],
  message: 'Tools hold a TabHandle (import type { TabHandle }), not the Tab: use a handle method or a browser-layer function that takes the handle (add one there if missing).',
};
/** Refuses imports (type imports too) of the given layers of src/. */
function above(layers, message) {
  return { group: layers.flatMap((layer) => [`**/${layer}/*`, `**/${layer}/**`]), message };
}
/** The fence of a layer that may not speak BiDi: no bidi, no page, none of the layers `higher` than it. */
function fenceBelow(higher, message, extra = []) {
  const patterns = [...BIDI_FENCE.patterns, PAGE_FENCE, ROOM_FENCE, ...(higher.length ? [above(higher, message)] : []), ...extra];
  return { 'no-restricted-imports': ['error', { patterns }], 'no-restricted-syntax': ['error', NO_RAW_BIDI, NO_PAGE_CALL] };
}

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
    // No import cycles anywhere in the server or the page scripts.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      // Sources import './x.js' for './x.ts' (NodeNext).
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    files: ['src/page/**/*.ts'],
    languageOptions: { globals: globals.browser },
  },
  // cli may import mcp, tools and browser; mcp tools and browser; tools browser only (what a tool needs of its session
  // is the ToolContext, src/tools/context.ts, supplied by mcp); the shared modules at src/ (options, error codes) none.
  { files: ['src/cli/**/*.ts'], rules: fenceBelow([], '') },
  { files: ['src/mcp/**/*.ts'], rules: fenceBelow(['cli'], 'src/mcp sits below cli.') },
  { files: ['src/tools/**/*.ts'], rules: fenceBelow(['cli', 'mcp'], 'tools sit below mcp and cli: take it from the ToolContext (src/tools/context.ts).', [TAB_FENCE]) },
  { files: ['src/*.ts'], rules: fenceBelow(['cli', 'mcp', 'tools', 'browser'], 'The shared modules of src/ sit below every layer.') },
  {
    // The page scripts run in Firefox: nothing of the server's reaches them, only the page contract both sides share.
    files: ['src/page/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!contract/)', message: 'Page scripts import only src/page and src/contract.' }] }],
    },
  },
  {
    // The page contract is types both sides import: it imports nothing of theirs.
    files: ['src/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./', message: 'src/contract imports only itself.' }] }] },
  },
  {
    // src/browser knows nothing of tools, MCP or commands; src/bidi knows nothing of tabs.
    files: ['src/browser/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [above(['tools', 'mcp', 'cli'], 'src/browser sits below tools, mcp and cli.'), PAGE_FENCE] }] },
  },
  {
    files: ['src/bidi/**/*.ts'],
    // The wire codes its failures (src/errors.ts) and knows nothing else of ours.
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./(?!errors\\.js$)', message: 'src/bidi is the wire only: it imports src/errors.ts and nothing else of ours.' }] }] },
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
