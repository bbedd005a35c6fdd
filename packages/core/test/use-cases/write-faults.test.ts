import { describe, expect, it } from 'vitest';
import { REQUIRED_TABLES } from '../../src';
import { MemoryTableStore } from '../support/memory-table-store';
import { WRITE_USE_CASES, sweepFaults } from '../../../../test/support/write-faults';

/**
 * The fault sweep of test/api/write-faults.test.ts on the in-memory store (which keeps the adapters'
 * contract): every write use case, with each of its store and blob calls failing in turn.
 */
describe('write faults in memory', () => {
  WRITE_USE_CASES.forEach((useCase, u) => {
    it(
      `${useCase.name}: a failure at any call leaves nothing stuck or orphaned`,
      { timeout: 120_000 },
      async () => {
        const store = new MemoryTableStore();
        for (const table of REQUIRED_TABLES) await store.createTable(table);
        const { calls, found } = await sweepFaults(store, useCase, `m${u}`);
        expect(calls).toBeGreaterThan(1);
        expect(found).toEqual([]);
      },
    );
  });
});
