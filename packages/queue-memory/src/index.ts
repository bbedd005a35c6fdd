export { MemoryScanQueue, exponentialBackoff, type MemoryScanQueueOptions } from './memory-scan-queue';
