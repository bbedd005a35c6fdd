import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Every test of the repository, as one run of `npm test`. Suites on the public fixtures live in
 * vitest.real.config.ts (`npm run test:real`).
 */
export default defineConfig({
  test: {
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Two files at a time at least: most of the API and browser suites wait on a browser, an
    // emulator or the OCR worker, so even a 2-core machine runs two of them side by side. Each
    // worker has its own Auth emulator (auth-emulator-setup.ts); stacks take free ports.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/*/{src,test}/**/*.test.ts',
            'lambdas/**/*.test.ts',
            'dev/**/*.test.ts',
            'tools/**/*.test.ts',
            'test/lint/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'store',
          include: ['test/store/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'analysis',
          include: ['test/analysis/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          environment: 'node',
          // One Firebase Auth emulator per worker for the run, shared by the stacks the files start.
          globalSetup: ['test/support/auth-emulator-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      'web/vitest.config.ts',
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // One Firebase Auth emulator per worker for the run, shared by the stacks the files start,
          // and the web app built once before them.
          globalSetup: ['test/support/auth-emulator-setup.ts', 'test/e2e/support/web-build-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
