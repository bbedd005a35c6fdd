import { defineConfig } from 'vitest/config';

/**
 * Suites on the real public receipts and analyzer responses (`npm run test:real`). They read the
 * folder named by RECEIPT_FIXTURES_DIR (e.g. ../shared/fixtures) and fail when it is not set.
 */
export default defineConfig({
  test: {
    name: 'real',
    include: ['test/real/**/*.test.ts'],
    environment: 'node',
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
