// Lint rules, type-aware: `npm run lint` (part of `npm run check` and of CI).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dashboard/dist/**',
      'migrations/**',
      'coverage/**',
      'src/db/tables.ts',
      'test/generated/**',
      'dashboard/src/generated/**',
      '**/*.wasm.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    // tests and the benchmark read GraphQL answers and raw rows as untyped JSON on purpose: what
    // they check is the value, asserted by the test itself
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  { files: ['**/*.mjs', '**/*.js', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
);
