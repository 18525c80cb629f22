import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const noUi = {
  patterns: [
    {
      group: ['react', 'react-dom', 'react/*', 'recharts', 'zustand', 'zustand/*'],
      message: 'core/ and ml/ hold no UI or store code.',
    },
    {
      group: ['**/components/*', '**/charts/*', '**/store/*', '**/browser/*', '**/workers/*'],
      message: 'core/ and ml/ may not import outer layers.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'playwright-report', 'test-results', '.e2e-fixtures'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-warning-comments': ['error', { terms: ['todo', 'fixme', 'xxx'], location: 'start' }],
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/charts/**/*.{ts,tsx}', 'src/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/core/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noUi.patterns,
            { group: ['@tensorflow/*', '**/ml/*'], message: 'core/ is pure TypeScript.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ml/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', noUi] },
  },
  {
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', '@tensorflow/*', '**/ml/*', '**/browser/*', '**/components/*'],
              message: 'the store imports core only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/charts/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@tensorflow/*', '**/ml/*'],
              message: 'views never touch tensors; go through the store.',
            },
          ],
        },
      ],
    },
  },
);
