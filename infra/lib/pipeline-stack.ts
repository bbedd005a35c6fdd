/**
 * The scan pipeline: the queue /api/upload and /api/retryScan put jobs on, its dead-letter queue, and
 * the analyze function it triggers, the only function allowed to call Textract.
 */
import { Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { OCR_ONLY_MODULES } from './bundling';
import type { AppConfig } from './config';
import { ReceiptFunction } from './receipt-function';
import { ANALYZE_HANDLER, DEAD_LETTER_HANDLER, SWEEP_HANDLER } from './routes';
import {
  grantAppDataCache,
  grantImages,
  importFirebaseSecret,
  sharedEnvironment,
} from './shared-environment';
import { importStorage, TableStoreAccess, type StorageExports } from './storage-stack';

/**
 * How long one analysis may take: a multi-page Textract analysis (polled for at most 45 s) plus the
 * writes.
 */
export const ANALYZE_TIMEOUT = Duration.seconds(120);
/**
 * AWS advises a queue visibility timeout of at least six times the function timeout, so a message is
 * not handed out again while a batch (with the runtime's own retries) is still being worked on.
 */
export const VISIBILITY_TIMEOUT_FACTOR = 6;
/**
 * Analysis attempts of one scan before the worker marks it failed. Each retry is a new message,
 * queued with a growing delay by the worker itself.
 */
export const MAX_SCAN_ATTEMPTS = 3;
/**
 * Deliveries of one message before SQS moves it to the dead-letter queue. The worker records its own
 * failures and re-queues, so a message is redelivered only when even that failed (say, the table
 * was unreachable).
 */
export const MAX_RECEIVE_COUNT = 5;
/** How often the sweeper looks for lost and stuck scans. */
export const SWEEP_EVERY = Duration.minutes(5);
/** How long the sweeper and the dead-letter function may run. */
export const QUEUE_KEEPER_TIMEOUT = Duration.seconds(60);
/** Jobs handed to one invocation; each reports its own failure. */
export const SCAN_BATCH_SIZE = 5;

/** Also left out by bundling.ts for every function; kept here for the stack's readers. */
export { OCR_ONLY_MODULES };

export interface PipelineStackProps extends StackProps {
  readonly config: AppConfig;
  /** The storage stack's export names; this stack must depend on the storage stack. */
  readonly storage: StorageExports;
}

export class PipelineStack extends Stack {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly analyzeFunction: ReceiptFunction;
  /** Queues again lost scans and fails stuck ones, on a schedule. */
  readonly sweepFunction: ReceiptFunction;
  /** Marks the scans of dead-lettered jobs Failed. */
  readonly deadLetterFunction: ReceiptFunction;

  constructor(scope: Construct, id: string, props: PipelineStackProps) {
    super(scope, id, props);
    const { config } = props;

    this.deadLetterQueue = new sqs.Queue(this, 'ScanJobsDeadLetters', {
      // The dead-letter function consumes it: a message must stay hidden while it is handled (the
      // default 30 s is shorter than the function's timeout, so one could be handled twice).
      visibilityTimeout: Duration.seconds(QUEUE_KEEPER_TIMEOUT.toSeconds() * VISIBILITY_TIMEOUT_FACTOR),
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new sqs.Queue(this, 'ScanJobs', {
      visibilityTimeout: Duration.seconds(ANALYZE_TIMEOUT.toSeconds() * VISIBILITY_TIMEOUT_FACTOR),
      retentionPeriod: Duration.days(4),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });

    const storage = importStorage(this, props.storage);
    const store = new TableStoreAccess(this, config, storage);
    this.analyzeFunction = new ReceiptFunction(this, 'AnalyzeReceipt', {
      handler: ANALYZE_HANDLER,
      config,
      description: 'Analyses queued receipts with Textract and stores the results',
      timeout: ANALYZE_TIMEOUT,
      memorySize: 1024,
      unusedModules: OCR_ONLY_MODULES,
      environment: sharedEnvironment(this, {
        config,
        store,
        storage,
        queue: this.queue,
        maxScanAttempts: MAX_SCAN_ATTEMPTS,
        firebaseServiceAccount: true,
      }),
    });
    const role = this.analyzeFunction.role;
    store.grant(this.analyzeFunction, 'readWrite', 'readWrite');
    // The image is read for Textract (which reads the object with the caller's rights) and the raw
    // analysis JSON is stored beside it.
    grantImages(role, storage, ['read', 'put']);
    // After writing a receipt the worker rebuilds the user's cached report.
    grantAppDataCache(role, storage);
    importFirebaseSecret(this, config).grantRead(role);
    // A failed attempt is queued again, with a delay, by the worker.
    this.queue.grantSendMessages(role);
    role.addToPolicy(
      new iam.PolicyStatement({
        sid: 'AnalyzeReceiptsWithTextract',
        // AnalyzeExpense reads images and one-page PDFs; a multi-page PDF is read by the asynchronous
        // pair, started on the S3 object and polled by the same function.
        actions: ['textract:AnalyzeExpense', 'textract:StartExpenseAnalysis', 'textract:GetExpenseAnalysis'],
        resources: ['*'],
      }),
    );
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'textract:AnalyzeExpense, StartExpenseAnalysis and GetExpenseAnalysis support no resource-level permissions; they are the only actions granted on "*".',
    });

    this.analyzeFunction.function.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: SCAN_BATCH_SIZE,
        reportBatchItemFailures: true,
        // Textract's AnalyzeExpense quota is a few calls per second; keep the workers below it.
        maxConcurrency: 5,
      }),
    );

    // Two small functions on the queue table only: no images, no Firebase secret, no Textract.
    const queueKeeper = (id: string, handler: string, description: string, sendsJobs: boolean) => {
      const fn = new ReceiptFunction(this, id, {
        handler,
        config,
        description,
        timeout: QUEUE_KEEPER_TIMEOUT,
        memorySize: 256,
        environment: sharedEnvironment(this, {
          config,
          store,
          storage,
          queue: this.queue,
          maxScanAttempts: MAX_SCAN_ATTEMPTS,
          firebaseServiceAccount: false,
        }),
      });
      // The scan queue table only, where the store allows it (Azure); all of the table on DynamoDB.
      store.grant(fn, 'queueKeeper', 'readWrite');
      if (sendsJobs) this.queue.grantSendMessages(fn.role);
      return fn;
    };
    this.sweepFunction = queueKeeper(
      'SweepScans',
      SWEEP_HANDLER,
      'Queues again scans left with no job and fails scans stuck in Analyzing',
      true,
    );
    new events.Rule(this, 'SweepSchedule', {
      description: 'Runs the scan queue sweeper',
      schedule: events.Schedule.rate(SWEEP_EVERY),
      targets: [new targets.LambdaFunction(this.sweepFunction.function)],
    });
    this.deadLetterFunction = queueKeeper(
      'FailDeadLetteredScans',
      DEAD_LETTER_HANDLER,
      'Marks the scans of dead-lettered jobs Failed with a reason',
      false,
    );
    this.deadLetterFunction.function.addEventSource(
      new SqsEventSource(this.deadLetterQueue, { batchSize: 10, reportBatchItemFailures: true }),
    );
  }
}
