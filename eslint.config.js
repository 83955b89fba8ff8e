// ESLint (flat config): `npm run lint`, zero warnings allowed. Formatting is Prettier's job
// (`npm run format:check`), so no stylistic rules here.
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['.scratch/', 'dist/', 'node_modules/', 'e2e/artifacts/', 'test-results/', 'playwright-report/', 'postcss.config.cjs', '.dependency-cruiser.cjs'],
  },
  js.configs.recommended,
  // Type-aware: the rules that catch real mistakes (floating promises, awaiting non-promises,
  // misused promises in handlers) need the program's types.
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      // Async functions where a void callback is expected are the design here: JSX handlers
      // (react-hook-form's handleSubmit, mutateAsync), Fastify hooks and Node's process/stream
      // events all take them. The rule still checks promises in conditions and spreads, and
      // no-floating-promises catches the promise nobody handles.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Route handlers and hooks are async so that a synchronous throw becomes the rejection the
      // operation wrapper turns into the error envelope; an await is not required for that.
      '@typescript-eslint/require-await': 'off',
      // String(value) and templates over JSON values of unknown shape are deliberate (wire
      // payloads, history data); the rule cannot tell them from an object printed by mistake.
      '@typescript-eslint/no-base-to-string': 'off',
      // A caught value is passed on as it came (reject(err) / throw early).
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      // `_name` marks a value left out on purpose (rest siblings, unused positions).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Validators reject control characters on purpose (names, redirect URIs, folder titles).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended, ...pluginQuery.configs['flat/recommended']],
    rules: {
      // Only says the React Compiler would skip a component (react-hook-form's watch); the console
      // is not built with the compiler.
      'react-hooks/incompatible-library': 'off',
      // autoFocus on Mantine inputs inside dialogs and on a sign-in page's first field moves focus
      // where the WAI-ARIA dialog pattern wants it; native elements are still checked.
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
    },
  },
  {
    // Tests, benchmarks and e2e read the wire's JSON untyped (`any`) on purpose: the assertions are
    // the check, and typing every response read would add thousands of casts and no safety.
    files: ['**/*.test.{ts,tsx}', '**/*.test-support.ts', 'src/client/test/**', 'test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Fakes and route handlers in tests are async to match the signature they stand in for.
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  { files: ['**/*.js', '**/*.cjs', '**/*.mjs'], extends: [tseslint.configs.disableTypeChecked] },
);
