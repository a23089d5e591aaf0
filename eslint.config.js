import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  // .stryker-tmp: npm run mutate's copies of the tree, while it runs; reports: its output.
  {ignores: ['dist/', 'dist.*.tmp/', 'release/', 'node_modules/', 'oclif.manifest.json', 'coverage/', '.stryker-tmp/', 'reports/']},
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {globals: globals.node},
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_'}],
      'no-console': 'error',
    },
  },
  {
    // The entry points are CommonJS (bin/package.json): Node's ESM loader costs every start ~6 ms.
    // test/e2e/gw-thread.cjs starts gw in a worker thread as bin/run.js is started: CommonJS too.
    files: ['bin/**/*.js', 'test/**/*.cjs'],
    languageOptions: {sourceType: 'commonjs'},
    rules: {'@typescript-eslint/no-require-imports': 'off'},
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {'no-console': 'off'},
  },
)
