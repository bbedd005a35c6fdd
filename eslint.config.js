// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

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

const folders = (path) =>
  readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
const adapters = folders('packages').filter((name) => name !== 'core');
const features = folders('web/src/features');

/**
 * Import boundaries by resolved file, so relative paths through '../', index files and package
 * names all count (import-x/no-restricted-paths; paths are from the repository root).
 */
const zones = [
  {
    target: 'packages/core',
    from: ['packages', 'lambdas', 'dev', 'tools', 'web', 'infra'],
    except: ['./core'],
    message: 'packages/core imports nothing of ours: the adapters, lambdas, web and infra depend on it.',
  },
  ...adapters.map((adapter) => ({
    target: `packages/${adapter}/src`,
    from: ['packages', 'lambdas', 'dev', 'tools', 'web', 'infra'],
    except: ['./core', `./${adapter}`],
    message: 'An adapter imports only @receipts/core and its own SDK, never another adapter.',
  })),
  {
    target: 'web/src',
    from: ['packages', 'lambdas', 'dev', 'tools', 'infra'],
    except: ['./core'],
    message: 'The web app imports only @receipts/core.',
  },
  {
    target: 'web/src',
    from: [
      'packages/core/src/use-cases',
      'packages/core/src/reports',
      'packages/core/src/repository',
      'packages/core/src/parsing',
    ],
    message:
      "The web app imports only core's API contract (e.g. '@receipts/core/api-routes'), never its use cases, read models, repository or parsing.",
  },
  ...features.map((feature) => ({
    target: `web/src/features/${feature}`,
    from: 'web/src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature; move shared code to src/components, hooks or lib.',
  })),
  {
    target: 'web/src/features',
    from: 'web/src/app',
    message: 'Features do not import the app shell (src/app); it imports them.',
  },
  {
    target: ['web/src/components', 'web/src/hooks', 'web/src/lib', 'web/src/stores', 'web/src/config'],
    from: ['web/src/features', 'web/src/app'],
    message: 'Shared code does not import features or the app shell.',
  },
  {
    target: 'lambdas',
    from: ['web', 'infra'],
    message: 'The server does not import the web app or the infrastructure.',
  },
  {
    target: ['lambdas', 'packages'],
    from: ['dev', 'tools'],
    message:
      'dev/ (the local stack) and tools/ (the CLIs) are never deployed: what runs on Lambda does not import them; they import it.',
  },
  {
    target: 'dev',
    from: ['web', 'infra', 'tools'],
    message:
      'The local stack serves the built web app; it does not import the web app or the infrastructure.',
  },
  {
    target: 'infra',
    from: ['web', 'dev', 'tools'],
    message: 'Infra does not import the web app (it deploys its build), the local stack or the CLIs.',
  },
  {
    target: 'tools',
    from: ['web', 'infra', 'dev'],
    message:
      'The CLIs use the packages; they do not import the web app, the infrastructure or the local stack.',
  },
];

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
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
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
    files: ['packages/core/**/*.{ts,js,mjs}'],
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
  // The core reads no configuration: the composition root does, and passes settings in.
  {
    files: ['packages/core/**/*.{ts,js,mjs}'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'packages/core reads no environment: take the setting as a parameter from the composition root.',
        },
      ],
    },
  },
  // Handlers are thin: they get their ports from the composition root and never build an SDK client.
  {
    files: ['lambdas/src/handlers/**/*.{ts,js,mjs}', 'lambdas/src/http/**/*.{ts,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: sdkPackages,
              message:
                'A handler never constructs an SDK client: take the port from the composition root (lambdas/src/composition.ts).',
            },
          ],
        },
      ],
    },
  },
  // Adapters import core and their own SDK, never each other.
  {
    files: ['packages/*/src/**/*.{ts,js,mjs}'],
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
  // Infra, the local stack and the CLIs take what packages publish in their package.json exports,
  // never a path into their src/.
  {
    files: ['infra/**/*.ts', 'dev/**/*.ts', 'tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^(\.\./)+(lambdas|packages)/|^@receipts/[^/]+/src(/|$)`,
              message:
                "Import what the package exports (e.g. '@receipts/lambdas/route-files'); add an entry to its package.json exports if needed.",
            },
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
  // What the web app needs of the API at run time (route table, limits) comes from the zod-free
  // '@receipts/core/api-routes'; '@receipts/core/api' would bring zod into the first page.
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@receipts/core/api',
              allowTypeImports: true,
              message:
                "Only types from '@receipts/core/api' (its zod schemas would load with the first page); take routes and limits from '@receipts/core/api-routes'.",
            },
            {
              name: '@receipts/core',
              allowTypeImports: true,
              message: "Import from a subpath such as '@receipts/core/api-routes', not the whole core.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/core/src/api-routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(zod(/.*)?|\\./.*)$',
              allowTypeImports: true,
              message:
                'api-routes.ts is loaded by the web app before its first page shows: no zod and no other module here.',
            },
          ],
        },
      ],
    },
  },
  // Web: features never import each other and shared code never imports a feature: see `zones`.
  prettier,
);
