import { MemoryTableStore } from '../../packages/core/test/support/memory-table-store';
import { describeTableStoreConformance } from './conformance';

// The in-memory store that the use cases' unit tests run on keeps the same contract as the adapters.
describeTableStoreConformance('MemoryTableStore', (logger) => new MemoryTableStore(logger));
