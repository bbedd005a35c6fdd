export { MAX_DELAY_SECONDS, SqsScanQueue, parseScanJob, type SqsScanQueueOptions } from './sqs-scan-queue';
