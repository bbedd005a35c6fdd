// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const sdkPackages = [
  '@aws-sdk/*',
  '@azure/*',
  'firebase-admin',
  'firebase-admin/*',
  'firebase',
  'firebase/*',
  'tesseract.js',
  'sharp',
  'aws-cdk-lib',
  'aws-cdk-lib/*',
];
const adapterPackages = ['@receipts/*', '!@receipts/core'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/cdk.out/**',
      '.data/**',
      'test-results/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  // The domain core imports no adapter and no SDK.
  {
    files: ['packages/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: sdkPackages,
              message: 'packages/core must not import an SDK; put it in an adapter package.',
            },
            { group: ['@receipts/*'], message: 'packages/core imports nothing of ours.' },
          ],
        },
      ],
    },
  },
  // Adapters import core and their own SDK, never each other.
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: ['packages/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: adapterPackages, message: 'An adapter imports only @receipts/core and its own SDK.' },
          ],
        },
      ],
    },
  },
  // The web app imports only core's API types and schemas.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: adapterPackages, message: 'web imports only @receipts/core.' },
            {
              group: ['@aws-sdk/*', '@azure/*', 'firebase-admin', 'firebase-admin/*'],
              message: 'No server SDK in the web app.',
            },
          ],
        },
      ],
    },
  },
  // Web: features never import each other; shared code never imports a feature.
  ...[
    {
      files: ['web/src/features/**/*.{ts,tsx}'],
      group: ['../../*/api/*', '../../*/components/*', '../../*/hooks/*', '../../*/utils/*', '!../../../**'],
      message: 'A feature does not import another feature; move shared code to src/components, hooks or lib.',
    },
    {
      files: ['web/src/{components,hooks,lib,stores,config}/**/*.{ts,tsx}'],
      group: ['**/features/*', '**/features/**'],
      message: 'Shared code does not import features.',
    },
  ].map(({ files, group, message }) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: adapterPackages, message: 'web imports only @receipts/core.' },
            {
              group: ['@aws-sdk/*', '@azure/*', 'firebase-admin', 'firebase-admin/*'],
              message: 'No server SDK in the web app.',
            },
            { group, message },
          ],
        },
      ],
    },
  })),
  prettier,
);
