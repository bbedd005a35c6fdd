import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test files that take longest in `npm test`, longest first (from the per-file durations of a
 * full run; update the list when a file's time changes much, test/lint/long-files.test.ts checks
 * that each still exists). A file that takes minutes and starts late keeps one worker busy alone at
 * the end of the run.
 */
export const LONG_FILES = [
  'test/api/write-faults.test.ts',
  'test/e2e/screens.test.ts',
  'test/api/auth-emulator.test.ts',
  'test/e2e/review-and-correct.test.ts',
  'test/api/pipeline.test.ts',
  'test/e2e/capture-anywhere.test.ts',
  'test/e2e/web.test.ts',
  'test/infra/bundle.test.ts',
  'test/api/restart.test.ts',
  'test/analysis/ocr.test.ts',
  'test/api/report-totals-stores.test.ts',
  'test/e2e/reports.test.ts',
  'test/e2e/daily-use.test.ts',
];

/**
 * Starts the files of {@link LONG_FILES} first, in that order, whatever their project, and then the
 * rest in Vitest's own order. Vitest's order runs one project after another and, within a project,
 * the files that took longest last time first, or without a record of earlier runs (a fresh clone,
 * as in CI) the largest files first: a short file that runs a long sweep would start late.
 */
export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = LONG_FILES.indexOf(relative(root, spec.moduleId).split('\\').join('/'));
      return at < 0 ? LONG_FILES.length : at;
    };
    // Array sort is stable: the other files keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

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
    // The longest files first, whatever their project (LongFilesFirst above).
    sequence: { sequencer: LongFilesFirst },
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
