import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { ORIGIN_VERIFY_HEADER, ROUTES, type RouteName } from '@receipts/core/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_HANDLER_FILES } from '@receipts/lambdas/route-files';
import { STORE_TABLE_SCHEMA } from '../../packages/store-dynamo/src/create-store-table';
import {
  ANALYZE_TIMEOUT,
  MAX_RECEIVE_COUNT,
  VISIBILITY_TIMEOUT_FACTOR,
} from '../../infra/lib/pipeline-stack';
import { ROUTE_THROTTLES } from '../../infra/lib/api-stack';
import { EDGE_REGION, WAF_UPLOADS_PER_IP, WEB_ACL_ARN_PARAMETER } from '../../infra/lib/edge-stack';
import { TEXTRACT_SERVICE } from '../../infra/lib/monitoring-stack';
import { NONCURRENT_VERSION_DAYS } from '../../infra/lib/storage-stack';
import { HANDLERS_DIR, type ReceiptFunction } from '../../infra/lib/receipt-function';
import {
  actionsOf,
  propertiesOf,
  removeTempFolders,
  statementsAllowing,
  synthApp,
  TEST_CONTEXT,
  type SynthesisedApp,
} from './synth-app';

const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];
/** The routes that read the reports, and first settle the user's stopped writes and uploads. */
const REPORT_ROUTES: readonly RouteName[] = [
  'getAppData',
  'report',
  'exportCsv',
  'receiptDetail',
  'merchantDetail',
  'itemDetail',
  'listMerchants',
  'dashboard',
];
/** The items the settle step writes: those of these tables, never a receipt, brand or corporation. */
const SETTLE_LEADING_KEYS = [
  'Users#*',
  'Totals#*',
  'TotalsApplied#*',
  'ScanQueue#*',
  'Items#*',
  'Taxes#*',
  'Merchants#*',
];
const TABLE_WRITES = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];
const REQUIRED_ENV = [
  'STORAGE_BACKEND',
  'BLOB_STORE',
  'S3_BUCKET',
  'ANALYZER',
  'SCAN_QUEUE',
  'SCAN_QUEUE_URL',
  'NOTIFIER',
  'FIREBASE_PROJECT_ID',
  'ADMIN_EMAILS',
  'MAX_SCAN_ATTEMPTS',
  'LOG_LEVEL',
  'NODE_OPTIONS',
];

let synth: SynthesisedApp;
beforeAll(() => {
  synth = synthApp();
});
afterAll(removeTempFolders);

/** Every function of the app with its stack's template. */
function allFunctions() {
  return [
    ...ROUTE_NAMES.map((name) => ({
      name: name as string,
      fn: synth.api.functions[name],
      template: synth.templates.api,
    })),
    { name: 'analyze', fn: synth.pipeline.analyzeFunction, template: synth.templates.pipeline },
    { name: 'sweep', fn: synth.pipeline.sweepFunction, template: synth.templates.pipeline },
    { name: 'deadLetter', fn: synth.pipeline.deadLetterFunction, template: synth.templates.pipeline },
  ];
}

function functionProperties(fn: ReceiptFunction, template = synth.templates.api) {
  return propertiesOf(template, fn.function.node.defaultChild as CfnElement) as {
    Runtime: string;
    Architectures: string[];
    Timeout: number;
    MemorySize: number;
    Handler: string;
    Environment: { Variables: Record<string, unknown> };
    LoggingConfig: { LogFormat: string; LogGroup: unknown };
  };
}

const api = (name: RouteName) => synth.api.functions[name];

describe('functions', () => {
  it('deploys one function per /api route, the analyze worker, the sweeper and the dead-letter consumer', () => {
    synth.templates.api.resourceCountIs('AWS::Lambda::Function', ROUTE_NAMES.length);
    synth.templates.pipeline.resourceCountIs('AWS::Lambda::Function', 3);
    // The other stacks hold no functions of ours, only functions the CDK provides: the table registry's
    // custom resource and the site deployment.
    synth.templates.storage.resourceCountIs('AWS::Lambda::Function', 1);
    expect(synth.storage.tableRegistry).toBeDefined();
    synth.templates.monitoring.resourceCountIs('AWS::Lambda::Function', 0);
  });

  it('builds each route from the handler file the lambdas package names for it, and the worker from analyze-receipt.ts', () => {
    for (const name of ROUTE_NAMES) {
      expect(api(name).entry).toBe(join(HANDLERS_DIR, ROUTE_HANDLER_FILES[name]));
      expect(existsSync(api(name).entry)).toBe(true);
    }
    expect(synth.pipeline.analyzeFunction.entry).toBe(join(HANDLERS_DIR, 'analyze-receipt.ts'));
  });

  it('runs every function on Node.js 22 on arm64, with JSON logs in a log group that expires', () => {
    for (const { name, fn, template } of allFunctions()) {
      const props = functionProperties(fn, template);
      expect(props.Runtime, name).toBe('nodejs22.x');
      expect(props.Architectures, name).toEqual(['arm64']);
      expect(props.Handler, name).toBe('index.handler');
      expect(props.LoggingConfig.LogFormat, name).toBe('JSON');
      const logGroup = propertiesOf(template, fn.logGroup.node.defaultChild as CfnElement);
      expect(logGroup.RetentionInDays, name).toBe(30);
    }
  });

  it('gives every function the settings the composition root reads, with source maps on', () => {
    for (const { name, fn, template } of allFunctions()) {
      const env = functionProperties(fn, template).Environment.Variables;
      for (const key of REQUIRED_ENV) expect(env, `${name} ${key}`).toHaveProperty(key);
      expect(env).toMatchObject({
        STORAGE_BACKEND: 'dynamodb',
        BLOB_STORE: 's3',
        ANALYZER: 'textract',
        SCAN_QUEUE: 'sqs',
        NOTIFIER: 'fcm',
        FIREBASE_PROJECT_ID: TEST_CONTEXT.firebaseProjectId,
        ADMIN_EMAILS: 'admin@example.com,second@example.com',
        NODE_OPTIONS: '--enable-source-maps',
      });
      expect(env, name).toHaveProperty('DYNAMODB_TABLE');
      expect(env, name).not.toHaveProperty('AZURE_TABLES_SECRET_ARN');
    }
  });

  it('never sets FIREBASE_AUTH_EMULATOR_HOST (firebase-admin would accept unsigned tokens)', () => {
    for (const template of Object.values(synth.templates)) {
      expect(JSON.stringify(template.toJSON())).not.toContain('FIREBASE_AUTH_EMULATOR_HOST');
    }
  });

  it('tells only the functions that may read the Firebase service account where it is', () => {
    for (const { name, fn, template } of allFunctions()) {
      const env = functionProperties(fn, template).Environment.Variables;
      // Only the analyze function sends push, and only deleteAccount deletes sign-in accounts;
      // token checks need no key.
      if (name === 'analyze' || name === 'deleteAccount')
        expect(env, name).toHaveProperty('FIREBASE_SERVICE_ACCOUNT_SECRET_ARN');
      else expect(env, name).not.toHaveProperty('FIREBASE_SERVICE_ACCOUNT_SECRET_ARN');
    }
  });

  it('gives the analyze worker the memory and time for a Textract call', () => {
    const props = functionProperties(synth.pipeline.analyzeFunction, synth.templates.pipeline);
    expect(props.Timeout).toBe(ANALYZE_TIMEOUT.toSeconds());
    expect(props.MemorySize).toBe(1024);
  });
});

describe('permissions per function', () => {
  const role = (name: RouteName) => api(name).role;
  const analyzeRole = () => synth.pipeline.analyzeFunction.role;

  it('allows Textract expense analysis (one page, and multi-page started and polled) to the analyze function and to no other', () => {
    const textractActions = [
      'textract:AnalyzeExpense',
      'textract:StartExpenseAnalysis',
      'textract:GetExpenseAnalysis',
    ];
    const granted = actionsOf(synth.templates.pipeline, analyzeRole());
    expect(granted).toEqual(expect.arrayContaining(textractActions));
    expect(granted.filter((a) => a.startsWith('textract:')).sort()).toEqual([...textractActions].sort());
    for (const name of ROUTE_NAMES)
      for (const action of textractActions)
        expect(actionsOf(synth.templates.api, role(name)), name).not.toContain(action);
    expect(JSON.stringify(synth.templates.api.toJSON())).not.toContain('textract:');
  });

  it('lets the analyze function read images (Textract reads them with its rights), store the analysis and re-queue a failed attempt', () => {
    const actions = actionsOf(synth.templates.pipeline, analyzeRole());
    expect(actions).toEqual(
      expect.arrayContaining([
        's3:GetObject',
        's3:PutObject',
        'sqs:SendMessage',
        'sqs:ReceiveMessage',
        'sqs:DeleteMessage',
      ]),
    );
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'secretsmanager:GetSecretValue']));
    expect(actions).not.toContain('s3:DeleteObject');
    const cachePuts = statementsAllowing(synth.templates.pipeline, analyzeRole(), 's3:PutObject');
    expect(JSON.stringify(cachePuts.map((s) => s.Resource))).toContain('/cache/*/app-data.json');
  });

  it('lets the data download write and read exports under exports/ only, and nothing else write', () => {
    const puts = statementsAllowing(synth.templates.api, role('downloadMyData'), 's3:PutObject');
    expect(puts).toHaveLength(1);
    expect(JSON.stringify(puts[0]!.Resource)).toContain('/exports/*');
    const actions = actionsOf(synth.templates.api, role('downloadMyData'));
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject', 's3:AbortMultipartUpload']));
    expect(actions).not.toContain('s3:DeleteObject');
  });

  it('lets upload store the image, send the scan job and remove what a stopped upload left', () => {
    const actions = actionsOf(synth.templates.api, role('upload'));
    expect(actions).toEqual(expect.arrayContaining(['s3:PutObject', 'sqs:SendMessage', 'dynamodb:PutItem']));
    // Settling a stopped upload lists its objects and deletes an image no receipt or scan holds.
    expect(actions).toEqual(expect.arrayContaining(['s3:DeleteObject', 's3:ListBucket']));
    expect(actions).not.toContain('s3:GetObject');
    const send = statementsAllowing(synth.templates.api, role('upload'), 'sqs:SendMessage');
    expect(JSON.stringify(send)).toContain('ExportsOutputFnGetAttScanJobs');
  });

  it('lets only upload, retryScan, reanalyseReceipt and the worker send scan jobs', () => {
    for (const name of ROUTE_NAMES) {
      const sends = actionsOf(synth.templates.api, role(name)).includes('sqs:SendMessage');
      expect(sends, name).toBe(name === 'upload' || name === 'retryScan' || name === 'reanalyseReceipt');
    }
  });

  it('keeps the read-only routes from writing the table or deleting objects', () => {
    for (const name of [
      'listQueue',
      'getImage',
      'storageListTables',
      'storageListRecords',
      'listCorrectionRules',
      'downloadMyData',
    ] as const) {
      const actions = actionsOf(synth.templates.api, role(name));
      expect(actions, name).toContain('dynamodb:Query');
      for (const write of TABLE_WRITES) expect(actions, `${name} ${write}`).not.toContain(write);
      expect(actions, name).not.toContain('s3:DeleteObject');
    }
    expect(actionsOf(synth.templates.api, role('getImage'))).not.toContain('s3:PutObject');
  });

  it('lets the report routes settle stopped writes and uploads: writes to those tables only, the report cache, deletes of images', () => {
    for (const name of REPORT_ROUTES) {
      const actions = actionsOf(synth.templates.api, role(name));
      expect(actions, name).toContain('dynamodb:Query');
      // Every table write is held to the items of the tables the settle step writes.
      for (const write of TABLE_WRITES) {
        const statements = statementsAllowing(synth.templates.api, role(name), write);
        expect(statements, `${name} ${write}`).toHaveLength(1);
        expect(statements[0]!.Condition, `${name} ${write}`).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': SETTLE_LEADING_KEYS },
        });
      }
      expect(actions, name).toEqual(expect.arrayContaining(['s3:DeleteObject', 's3:ListBucket']));
      const cachePuts = statementsAllowing(synth.templates.api, role(name), 's3:PutObject');
      expect(cachePuts, name).toHaveLength(1);
      expect(JSON.stringify(cachePuts[0]!.Resource), name).toContain('/cache/*/app-data.json');
      expect(actions, name).not.toContain('sqs:SendMessage');
    }
  });

  it('lets getImage read images, and deleteReceiptData and removeScan list and delete them', () => {
    expect(actionsOf(synth.templates.api, role('getImage'))).toEqual(
      expect.arrayContaining(['s3:GetObject', 's3:ListBucket']),
    );
    const deletes = actionsOf(synth.templates.api, role('deleteReceiptData'));
    expect(deletes).toEqual(
      expect.arrayContaining(['s3:DeleteObject', 's3:ListBucket', 'dynamodb:DeleteItem']),
    );
    // Its only put is the rebuilt report cache, never an image.
    const deletePuts = statementsAllowing(synth.templates.api, role('deleteReceiptData'), 's3:PutObject');
    expect(deletePuts).toHaveLength(1);
    expect(JSON.stringify(deletePuts[0]!.Resource)).toContain('/cache/*/app-data.json');
    const removes = actionsOf(synth.templates.api, role('removeScan'));
    expect(removes).toEqual(expect.arrayContaining(['s3:DeleteObject', 's3:ListBucket']));
    expect(removes).not.toContain('s3:PutObject');
    const deleters = ['deleteReceiptData', 'removeScan', 'deleteAccount', 'upload', ...REPORT_ROUTES];
    for (const name of ROUTE_NAMES.filter((n) => !deleters.includes(n))) {
      expect(actionsOf(synth.templates.api, role(name)), name).not.toContain('s3:DeleteObject');
    }
  });

  it('gives log-event no data access at all: only its own log group', () => {
    const statements = actionsOf(synth.templates.api, role('log'));
    expect(new Set(statements)).toEqual(new Set(['logs:CreateLogStream', 'logs:PutLogEvents']));
  });

  it('lets only the functions that send push or delete accounts read the Firebase secret', () => {
    // Token checks need no key; firebase-admin's deleteUser does.
    const accountReads = statementsAllowing(
      synth.templates.api,
      role('deleteAccount'),
      'secretsmanager:GetSecretValue',
    );
    expect(accountReads).toHaveLength(1);
    expect(JSON.stringify(accountReads[0]!.Resource)).toContain(
      `secret:${TEST_CONTEXT.firebaseServiceAccountSecretName}-??????`,
    );
    for (const name of ROUTE_NAMES.filter((n) => n !== 'deleteAccount')) {
      const reads = statementsAllowing(synth.templates.api, role(name), 'secretsmanager:GetSecretValue');
      expect(reads, name).toHaveLength(0);
      expect(functionProperties(api(name)).Environment.Variables, name).not.toHaveProperty(
        'FIREBASE_SERVICE_ACCOUNT_SECRET_ARN',
      );
    }
    for (const fn of [synth.pipeline.sweepFunction, synth.pipeline.deadLetterFunction]) {
      expect(actionsOf(synth.templates.pipeline, fn.role)).not.toContain('secretsmanager:GetSecretValue');
    }
    const reads = statementsAllowing(
      synth.templates.pipeline,
      synth.pipeline.analyzeFunction.role,
      'secretsmanager:GetSecretValue',
    );
    expect(reads).toHaveLength(1);
    expect(JSON.stringify(reads[0]!.Resource)).toContain(
      `secret:${TEST_CONTEXT.firebaseServiceAccountSecretName}-??????`,
    );
  });

  it('uses no AWS managed policy on our functions', () => {
    for (const { name, fn, template } of allFunctions()) {
      const roleProps = propertiesOf(template, fn.role.node.defaultChild as CfnElement);
      expect(roleProps.ManagedPolicyArns, name).toBeUndefined();
    }
  });
});

describe('HTTP API', () => {
  it('has one HTTP API with a route for each entry of ROUTES', () => {
    const t = synth.templates.api;
    t.resourceCountIs('AWS::ApiGatewayV2::Api', 1);
    t.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP' });
    t.resourceCountIs('AWS::ApiGatewayV2::Route', ROUTE_NAMES.length);
    const routeKeys = Object.values(t.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => (r.Properties as { RouteKey: string }).RouteKey,
    );
    expect(new Set(routeKeys)).toEqual(new Set(Object.values(ROUTES).map((r) => `${r.method} ${r.path}`)));
  });

  it('puts the routes that need a signed-in user behind a JWT authorizer for the Firebase project', () => {
    const t = synth.templates.api;
    t.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
      AuthorizerType: 'JWT',
      IdentitySource: ['$request.header.Authorization'],
      JwtConfiguration: {
        Issuer: `https://securetoken.google.com/${TEST_CONTEXT.firebaseProjectId}`,
        Audience: [TEST_CONTEXT.firebaseProjectId],
      },
    });
    for (const route of Object.values(t.findResources('AWS::ApiGatewayV2::Route'))) {
      const props = route.Properties as { RouteKey: string; AuthorizationType: string };
      expect(props.AuthorizationType, props.RouteKey).toBe(
        props.RouteKey === 'POST /api/log' ? 'NONE' : 'JWT',
      );
    }
  });

  it('routes each path to its own function', () => {
    const t = synth.templates.api;
    const integrations = t.findResources('AWS::ApiGatewayV2::Integration');
    for (const route of Object.values(t.findResources('AWS::ApiGatewayV2::Route'))) {
      const props = route.Properties as { RouteKey: string; Target: { 'Fn::Join': [string, unknown[]] } };
      const integrationId = (props.Target['Fn::Join'][1][1] as { Ref: string }).Ref;
      const uri = JSON.stringify(
        (integrations[integrationId]!.Properties as { IntegrationUri: unknown }).IntegrationUri,
      );
      const name = ROUTE_NAMES.find((n) => `${ROUTES[n].method} ${ROUTES[n].path}` === props.RouteKey)!;
      const fnId = synth.api.getLogicalId(api(name).function.node.defaultChild as CfnElement);
      expect(uri, props.RouteKey).toContain(fnId);
    }
  });

  it('throttles the stage and writes JSON access logs', () => {
    synth.templates.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
      AccessLogSettings: { Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
    });
  });

  it('throttles upload, retryScan and the open log route below the stage limit', () => {
    synth.templates.api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      RouteSettings: {
        'POST /api/upload': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
        'POST /api/retryScan': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
        'POST /api/log': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      },
    });
    // Every throttled route key is a route of the API.
    const routeKeys = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`);
    for (const key of Object.keys(ROUTE_THROTTLES)) expect(routeKeys).toContain(key);
  });

  it('outputs the API URL', () => {
    synth.templates.api.hasOutput('ApiUrl', {});
  });
});

describe('scan pipeline', () => {
  const queues = () => synth.templates.pipeline.findResources('AWS::SQS::Queue');
  const mainQueue = () =>
    propertiesOf(synth.templates.pipeline, synth.pipeline.queue.node.defaultChild as CfnElement) as {
      VisibilityTimeout: number;
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': string[] }; maxReceiveCount: number };
      SqsManagedSseEnabled: boolean;
    };

  it('has one queue and its dead-letter queue, both encrypted and TLS-only', () => {
    expect(Object.keys(queues())).toHaveLength(2);
    for (const queue of Object.values(queues())) {
      expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true });
    }
    synth.templates.pipeline.resourcePropertiesCountIs(
      'AWS::SQS::QueuePolicy',
      {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          ]),
        },
      },
      2,
    );
  });

  it('moves a job to the dead-letter queue after a bounded number of deliveries', () => {
    const dlqId = synth.pipeline.getLogicalId(synth.pipeline.deadLetterQueue.node.defaultChild as CfnElement);
    expect(mainQueue().RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    expect(MAX_RECEIVE_COUNT).toBeGreaterThan(1);
  });

  it("keeps the queue's visibility timeout at least six times the analyze function's timeout", () => {
    const timeout = (
      propertiesOf(
        synth.templates.pipeline,
        synth.pipeline.analyzeFunction.function.node.defaultChild as CfnElement,
      ) as { Timeout: number }
    ).Timeout;
    expect(VISIBILITY_TIMEOUT_FACTOR).toBeGreaterThanOrEqual(6);
    expect(mainQueue().VisibilityTimeout).toBeGreaterThanOrEqual(6 * timeout);
  });

  it('sweeps the scan queue every 5 minutes and consumes the dead-letter queue', () => {
    const t = synth.templates.pipeline;
    const logicalId = (fn: ReceiptFunction) =>
      synth.pipeline.getLogicalId(fn.function.node.defaultChild as CfnElement);
    t.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [
        Match.objectLike({ Arn: { 'Fn::GetAtt': [logicalId(synth.pipeline.sweepFunction), 'Arn'] } }),
      ],
    });
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(synth.pipeline.deadLetterFunction) },
      EventSourceArn: {
        'Fn::GetAtt': [
          synth.pipeline.getLogicalId(synth.pipeline.deadLetterQueue.node.defaultChild as CfnElement),
          'Arn',
        ],
      },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(synth.pipeline.sweepFunction.entry).toBe(join(HANDLERS_DIR, 'sweep-scans.ts'));
    expect(synth.pipeline.deadLetterFunction.entry).toBe(join(HANDLERS_DIR, 'dead-letter.ts'));
  });

  it('triggers the analyze function from the queue with partial batch failure reporting', () => {
    const t = synth.templates.pipeline;
    t.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: {
        Ref: synth.pipeline.getLogicalId(
          synth.pipeline.analyzeFunction.function.node.defaultChild as CfnElement,
        ),
      },
      EventSourceArn: {
        'Fn::GetAtt': [
          synth.pipeline.getLogicalId(synth.pipeline.queue.node.defaultChild as CfnElement),
          'Arn',
        ],
      },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BatchSize: 5,
    });
  });

  it('tells the worker how many attempts a scan gets', () => {
    const env = functionProperties(synth.pipeline.analyzeFunction, synth.templates.pipeline).Environment
      .Variables;
    expect(Number(env.MAX_SCAN_ATTEMPTS)).toBeGreaterThanOrEqual(1);
  });
});

describe('storage', () => {
  it('has one DynamoDB table, on demand, with point-in-time recovery and deletion protection, kept on stack deletion', () => {
    const t = synth.templates.storage;
    t.resourceCountIs('AWS::DynamoDB::Table', 1);
    t.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
    });
  });

  it('declares exactly the key layout the DynamoDB adapter creates for itself (createStoreTable)', () => {
    const table = Object.values(synth.templates.storage.findResources('AWS::DynamoDB::Table'))[0]!
      .Properties as {
      KeySchema: unknown[];
      AttributeDefinitions: unknown[];
      GlobalSecondaryIndexes: unknown[];
      BillingMode: string;
    };
    expect(table.KeySchema).toEqual(STORE_TABLE_SCHEMA.KeySchema);
    expect(table.AttributeDefinitions).toEqual(
      expect.arrayContaining([...STORE_TABLE_SCHEMA.AttributeDefinitions]),
    );
    expect(table.AttributeDefinitions).toHaveLength(STORE_TABLE_SCHEMA.AttributeDefinitions.length);
    expect(table.GlobalSecondaryIndexes).toEqual(STORE_TABLE_SCHEMA.GlobalSecondaryIndexes);
    expect(table.BillingMode).toBe(STORE_TABLE_SCHEMA.BillingMode);
  });

  it('has two buckets in all: receipt images and the site', () => {
    const count = Object.values(synth.templates).reduce(
      (n, t) => n + Object.keys(t.findResources('AWS::S3::Bucket')).length,
      0,
    );
    expect(count).toBe(2);
  });

  it('keeps receipt images private, encrypted, versioned and retained', () => {
    synth.templates.storage.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
      }),
    });
  });

  it(`expires noncurrent versions of images after ${NONCURRENT_VERSION_DAYS} day, so a deleted receipt's image does not linger`, () => {
    expect(NONCURRENT_VERSION_DAYS).toBe(1);
    synth.templates.storage.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({
            Status: 'Enabled',
            NoncurrentVersionExpiration: { NoncurrentDays: 1 },
            ExpiredObjectDeleteMarker: true,
          }),
        ]),
      },
    });
  });

  it('expires data exports (exports/) after a day, and only them', () => {
    synth.templates.storage.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          Match.objectLike({ Status: 'Enabled', Prefix: 'exports/', ExpirationInDays: 1 }),
        ]),
      },
    });
  });

  it('refuses requests to either bucket that do not use TLS 1.2 or later', () => {
    for (const t of [synth.templates.storage, synth.templates.web]) {
      t.hasResourceProperties('AWS::S3::BucketPolicy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
            Match.objectLike({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
            }),
          ]),
        },
      });
    }
  });
});

interface AlarmProperties {
  Threshold: number;
  ComparisonOperator: string;
  Metrics?: { MetricStat: { Metric: { MetricName: string; Namespace: string } } }[];
}

describe('monitoring', () => {
  /** Alarms on a metric; a labelled metric sits in `Metrics[].MetricStat`. */
  const alarmOn = (metricName: string) =>
    Object.values(synth.templates.monitoring.findResources('AWS::CloudWatch::Alarm'))
      .map((a) => a.Properties as AlarmProperties)
      .filter((p) => p.Metrics?.[0]?.MetricStat.Metric.MetricName === metricName);

  it('alarms as soon as a job reaches the dead-letter queue', () => {
    const alarms = alarmOn('ApproximateNumberOfMessagesVisible');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(alarms[0]!.Metrics![0]!.MetricStat.Metric.Namespace).toBe('AWS/SQS');
    expect(JSON.stringify(alarms[0]!.Metrics)).toContain('ScanJobsDeadLetters');
  });

  it('alarms when the oldest waiting job is too old, and on function and API errors', () => {
    expect(alarmOn('ApproximateAgeOfOldestMessage')).toHaveLength(1);
    expect(alarmOn('Errors')).toHaveLength(1);
    expect(alarmOn('5xx')).toHaveLength(1);
  });

  it('has a dashboard with function errors and the queue age', () => {
    const t = synth.templates.monitoring;
    t.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const body = JSON.stringify(Object.values(t.findResources('AWS::CloudWatch::Dashboard'))[0]!.Properties);
    expect(body).toContain('ApproximateAgeOfOldestMessage');
    expect(body).toContain('AWS/Lambda');
    expect(body).toContain('Errors');
  });

  it('sends no notifications unless alarmEmail is set', () => {
    synth.templates.monitoring.resourceCountIs('AWS::SNS::Topic', 0);
  });
});

describe('edge protection', () => {
  interface RateRule {
    Name: string;
    Action: unknown;
    Statement: {
      RateBasedStatement: {
        Limit: number;
        AggregateKeyType: string;
        EvaluationWindowSec: number;
        ScopeDownStatement?: unknown;
      };
    };
  }
  const webAcl = (edge: SynthesisedApp['edgeTemplate']) => {
    const acls = Object.values(edge!.findResources('AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    return acls[0]!.Properties as { Scope: string; DefaultAction: unknown; Rules: RateRule[] };
  };
  const distributionConfig = (s: SynthesisedApp) =>
    propertiesOf(s.templates.web, s.web.distribution.node.defaultChild as CfnElement).DistributionConfig as {
      WebACLId: unknown;
      Origins: {
        Id: string;
        CustomOriginConfig?: unknown;
        OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
      }[];
    };

  it('puts a WAF web ACL of scope CLOUDFRONT, with per-IP rate limits, in a stack in us-east-1', () => {
    expect(synth.edge?.region).toBe(EDGE_REGION);
    const acl = webAcl(synth.edgeTemplate);
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const byName = Object.fromEntries(acl.Rules.map((r) => [r.Name, r]));
    expect(byName.RequestsPerIp?.Statement.RateBasedStatement).toMatchObject({
      Limit: 1000,
      AggregateKeyType: 'IP',
      EvaluationWindowSec: 300,
    });
    expect(byName.RequestsPerIp?.Action).toEqual({ Block: {} });
    expect(byName.UploadsPerIp?.Statement.RateBasedStatement).toMatchObject({
      Limit: WAF_UPLOADS_PER_IP,
      AggregateKeyType: 'IP',
    });
    expect(JSON.stringify(byName.UploadsPerIp?.Statement.RateBasedStatement.ScopeDownStatement)).toContain(
      '/api/upload',
    );
    expect(byName.UploadsPerIp?.Action).toEqual({ Block: {} });
    synth.edgeTemplate!.hasResourceProperties('AWS::SSM::Parameter', {
      Name: WEB_ACL_ARN_PARAMETER,
      Value: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] },
    });
  });

  it("attaches the web ACL to the distribution, read at deploy from us-east-1 after the edge stack's deploy", () => {
    const reader = Object.entries(synth.templates.web.findResources('Custom::EdgeWebAclArn'));
    expect(reader).toHaveLength(1);
    const [readerId, resource] = reader[0]!;
    const call = JSON.parse(String((resource.Properties as { Create: unknown }).Create)) as unknown;
    expect(call).toMatchObject({
      service: 'SSM',
      action: 'getParameter',
      parameters: { Name: WEB_ACL_ARN_PARAMETER },
      region: EDGE_REGION,
    });
    expect(distributionConfig(synth).WebACLId).toEqual({ 'Fn::GetAtt': [readerId, 'Parameter.Value'] });
    expect(synth.web.dependencies.map((d) => d.stackName)).toContain(synth.edge!.stackName);
  });

  it('uses a web ACL named in webAclArn instead, with no edge stack, and takes the rate limit from config', () => {
    const arn =
      'arn:aws:wafv2:us-east-1:123456789012:global/webacl/shared/0a1b2c3d-aaaa-bbbb-cccc-123456789012';
    const named = synthApp({ context: { webAclArn: arn } });
    expect(named.edge).toBeUndefined();
    expect(distributionConfig(named).WebACLId).toBe(arn);
    named.templates.web.resourceCountIs('Custom::EdgeWebAclArn', 0);

    const tuned = synthApp({ context: { wafRequestsPerIp: '300' } });
    // The managed rule groups have no rate.
    const limits = webAcl(tuned.edgeTemplate).Rules.map((r) => r.Statement.RateBasedStatement?.Limit);
    expect(limits).toContain(300);
  });

  it('refuses a web ACL ARN outside us-east-1 or not of scope CLOUDFRONT', () => {
    for (const webAclArn of [
      'arn:aws:wafv2:eu-west-1:123456789012:global/webacl/shared/0a1b2c3d',
      'arn:aws:wafv2:us-east-1:123456789012:regional/webacl/shared/0a1b2c3d',
    ]) {
      expect(() => synthApp({ context: { webAclArn } })).toThrow(/webAclArn.*CLOUDFRONT, in us-east-1/s);
    }
  });

  it('makes the API answer only requests that came through CloudFront, with a header value generated at deploy', () => {
    const secrets = synth.templates.api.findResources('AWS::SecretsManager::Secret');
    const [secretId, secret] = Object.entries(secrets)[0]!;
    expect(Object.keys(secrets)).toHaveLength(1);
    expect(JSON.stringify(secret.Properties)).toContain('GenerateSecretString');
    // Every route function gets the value by a dynamic reference: no value in the template.
    for (const name of ROUTE_NAMES) {
      const value = JSON.stringify(functionProperties(api(name)).Environment.Variables.ORIGIN_VERIFY_SECRET);
      expect(value, name).toContain('{{resolve:secretsmanager:');
      expect(value, name).toContain(secretId);
    }
    // CloudFront sends the same value to the API origin (and only there).
    const origins = distributionConfig(synth).Origins;
    const withHeader = origins.filter((o) =>
      (o.OriginCustomHeaders ?? []).some((h) => h.HeaderName === ORIGIN_VERIFY_HEADER),
    );
    expect(withHeader).toHaveLength(1);
    expect(withHeader[0]!.CustomOriginConfig).toBeDefined();
    const header = withHeader[0]!.OriginCustomHeaders!.find((h) => h.HeaderName === ORIGIN_VERIFY_HEADER)!;
    expect(JSON.stringify(header.HeaderValue)).toContain('{{resolve:secretsmanager:');
  });
});

describe('Textract budget', () => {
  it('alarms by e-mail on Textract spending alone, at 80 % spent and 100 % forecast of the monthly budget', () => {
    const withEmail = synthApp({
      context: { alarmEmail: 'ops@example.com', textractMonthlyBudgetUsd: '40' },
    });
    const budgets = Object.values(withEmail.templates.monitoring.findResources('AWS::Budgets::Budget'));
    expect(budgets).toHaveLength(1);
    const properties = budgets[0]!.Properties as {
      Budget: Record<string, unknown>;
      NotificationsWithSubscribers: {
        Notification: Record<string, unknown>;
        Subscribers: { SubscriptionType: string; Address: string }[];
      }[];
    };
    expect(properties.Budget).toMatchObject({
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: 40, Unit: 'USD' },
      CostFilters: { Service: [TEXTRACT_SERVICE] },
    });
    expect(TEXTRACT_SERVICE).toBe('Amazon Textract');
    expect(properties.NotificationsWithSubscribers.map((n) => n.Notification)).toEqual([
      expect.objectContaining({ NotificationType: 'ACTUAL', Threshold: 80, ThresholdType: 'PERCENTAGE' }),
      expect.objectContaining({
        NotificationType: 'FORECASTED',
        Threshold: 100,
        ThresholdType: 'PERCENTAGE',
      }),
    ]);
    for (const n of properties.NotificationsWithSubscribers) {
      expect(n.Subscribers).toEqual([{ SubscriptionType: 'EMAIL', Address: 'ops@example.com' }]);
    }
  });

  it('sends budget mail to budgetEmail when set, and warns at synth when nobody would be told', () => {
    const own = synthApp({ context: { alarmEmail: 'ops@example.com', budgetEmail: 'money@example.com' } });
    own.templates.monitoring.hasResourceProperties('AWS::Budgets::Budget', {
      NotificationsWithSubscribers: Match.arrayWith([
        Match.objectLike({ Subscribers: [{ SubscriptionType: 'EMAIL', Address: 'money@example.com' }] }),
      ]),
    });

    synth.templates.monitoring.resourceCountIs('AWS::Budgets::Budget', 0);
    const warnings = synth.assembly
      .getStackByName(synth.monitoring.stackName)
      .messages.map((m) => String(m.entry.data));
    expect(warnings.some((w) => w.includes('budgetEmail'))).toBe(true);
  });
});
