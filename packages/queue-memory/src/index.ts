export { MemoryScanQueue, type MemoryScanQueueOptions } from './memory-scan-queue';
