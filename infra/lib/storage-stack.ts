/**
 * Where users' data lives: the DynamoDB table of the table store (unless the deployment keeps its
 * tables in Azure) and the bucket of receipt images and analysis results. Both are kept when the
 * stack is deleted: they hold what users uploaded.
 */
import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import { REQUIRED_TABLES } from '@receipts/core';
import { SETTLE_WRITE_TABLES, type TableAccessLevel } from '@receipts/store-azure/access-levels';
import type { Construct } from 'constructs';
import type { AppConfig } from './config';
import { acknowledgeCdkProvidedFunction } from './nag-acknowledgements';
import type { ReceiptFunction } from './receipt-function';
import { TABLE_KEY_SCHEMA, tableLeadingKeys, tableRegistryItem } from './table-key-schema';

export interface StorageStackProps extends StackProps {
  readonly config: AppConfig;
}

/**
 * The names under which the storage stack exports its resources. Other stacks import them by these
 * names (not through CDK's generated exports) so that policy findings about them, such as the
 * object wildcard of the images bucket, have stable ids to acknowledge.
 */
export interface StorageExports {
  readonly imagesBucketArn: string;
  /** Only with the DynamoDB backend. */
  readonly tableArn: string | undefined;
}

/** Days a deleted or overwritten image is kept as a noncurrent version before S3 expires it. */
export const NONCURRENT_VERSION_DAYS = 1;

/** Where data exports are written in the images bucket (core's exportKey); expired by a lifecycle rule. */
export const DATA_EXPORTS_PREFIX = 'exports/';

/** Days a data export is kept; its download link lasts 15 minutes. */
export const DATA_EXPORT_DAYS = 1;

export class StorageStack extends Stack {
  /** The table store's table; undefined when storageBackend is 'azure'. */
  readonly table: dynamodb.Table | undefined;
  /** Receipt images and the raw analysis JSON, under each user's prefix. */
  readonly imagesBucket: s3.Bucket;
  readonly exportNames: StorageExports;
  /** Registers the app's tables in the DynamoDB table (the adapter refuses writes to unknown tables). */
  readonly tableRegistry: cr.AwsCustomResource | undefined;

  constructor(scope: Construct, id: string, props: StorageStackProps) {
    super(scope, id, props);

    this.imagesBucket = new s3.Bucket(this, 'Images', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        {
          // Versioning guards against a bad overwrite or delete for a day; after that a deleted
          // receipt's image must be gone for good (users delete receipts to remove them), so
          // noncurrent versions expire after 1 day, and the delete markers they leave go too.
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        {
          // A data export is fetched through a 15-minute link; the file itself goes after a day.
          id: 'ExpireDataExports',
          prefix: DATA_EXPORTS_PREFIX,
          expiration: Duration.days(DATA_EXPORT_DAYS),
        },
      ],
    });
    Validations.of(this.imagesBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Server access logs would need a third bucket; object access goes only through the app functions, whose JSON logs record each request per user.',
    });

    if (props.config.storageBackend === 'dynamodb') {
      this.table = new dynamodb.Table(this, 'Table', {
        partitionKey: { name: TABLE_KEY_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: TABLE_KEY_SCHEMA.sortKey, type: dynamodb.AttributeType.STRING },
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: true,
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        removalPolicy: RemovalPolicy.RETAIN,
      });
      for (const index of TABLE_KEY_SCHEMA.globalSecondaryIndexes) {
        this.table.addGlobalSecondaryIndex({
          indexName: index.indexName,
          partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
          sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
          projectionType: dynamodb.ProjectionType.ALL,
        });
      }
    }

    this.tableRegistry =
      this.table === undefined ? undefined : registerTables(this, this.table, props.config);

    this.exportNames = {
      imagesBucketArn: `${this.stackName}-ImagesBucketArn`,
      tableArn: this.table === undefined ? undefined : `${this.stackName}-TableArn`,
    };
    new CfnOutput(this, 'ImagesBucketArn', {
      value: this.imagesBucket.bucketArn,
      exportName: this.exportNames.imagesBucketArn,
    });
    if (this.table !== undefined && this.exportNames.tableArn !== undefined) {
      new CfnOutput(this, 'TableArn', { value: this.table.tableArn, exportName: this.exportNames.tableArn });
    }
  }
}

/**
 * Writes the registry item of every table the app uses, as the adapter's createTable would, when the
 * stack is created or the list of tables changes. An item already there is replaced with the same
 * content, so a redeploy is harmless and no data is touched.
 */
function registerTables(stack: Stack, table: dynamodb.Table, config: AppConfig): cr.AwsCustomResource {
  const registration: cr.AwsSdkCall = {
    service: 'DynamoDB',
    action: 'batchWriteItem',
    parameters: {
      RequestItems: {
        [table.tableName]: REQUIRED_TABLES.map((name) => ({ PutRequest: { Item: tableRegistryItem(name) } })),
      },
    },
    physicalResourceId: cr.PhysicalResourceId.of(`table-registry:${REQUIRED_TABLES.join(',')}`),
  };
  const registry = new cr.AwsCustomResource(stack, 'TableRegistry', {
    resourceType: 'Custom::TableRegistry',
    onCreate: registration,
    onUpdate: registration,
    policy: cr.AwsCustomResourcePolicy.fromStatements([
      new iam.PolicyStatement({ actions: ['dynamodb:BatchWriteItem'], resources: [table.tableArn] }),
    ]),
    installLatestAwsSdk: false,
    logGroup: new logs.LogGroup(stack, 'TableRegistryLogs', {
      retention: config.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    }),
  });
  // REQUIRED_TABLES is at most 25 names: one BatchWriteItem call holds them all.
  if (REQUIRED_TABLES.length > 25)
    throw new Error('The table registry is written in one batch of at most 25 items.');
  const provider = stack.node.tryFindChild(
    `AWS${cr.AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`,
  );
  if (provider !== undefined)
    acknowledgeCdkProvidedFunction(provider, "registers the app's tables in the DynamoDB table", {
      olderRuntime: false,
    });
  return registry;
}

/** The storage resources as another stack sees them. */
export interface ImportedStorage {
  readonly imagesBucket: s3.IBucket;
  readonly table: dynamodb.ITable | undefined;
  readonly exportNames: StorageExports;
}

/**
 * Imports the storage stack's resources into another stack (which must depend on the storage stack).
 *
 * @param scope - the importing stack
 * @param exportNames - the storage stack's {@link StorageStack.exportNames}
 */
export function importStorage(scope: Construct, exportNames: StorageExports): ImportedStorage {
  const imagesBucket = s3.Bucket.fromBucketArn(
    scope,
    'ImagesBucket',
    Fn.importValue(exportNames.imagesBucketArn),
  );
  const table =
    exportNames.tableArn === undefined
      ? undefined
      : dynamodb.Table.fromTableAttributes(scope, 'Table', {
          tableArn: Fn.importValue(exportNames.tableArn),
          globalIndexes: TABLE_KEY_SCHEMA.globalSecondaryIndexes.map((index) => index.indexName),
        });
  return { imagesBucket, table, exportNames };
}

/**
 * The id of the cdk-nag finding for a wildcard under an imported ARN, e.g. `<bucket ARN>/*`.
 *
 * @param exportName - the export the ARN is imported from
 * @param suffix - what follows the ARN in the policy, e.g. `/*` or `/index/*`
 */
export function importedWildcardFinding(exportName: string, suffix: string): string {
  return `AwsSolutions-IAM5[Resource::${exportName}${suffix}]`;
}

/**
 * How a function reaches the table store: the environment the composition root reads and the grants
 * that go with it, for DynamoDB or for Azure Tables. On Azure each access level (see ACCESS_LEVELS in
 * packages/store-azure) has a secret of its own, `<azureTablesSecretName>/<level>`, holding that
 * level's per-table signatures (`npm run tables:access`); a function may read its level's secret
 * only, and none holds the account key.
 */
export class TableStoreAccess {
  readonly environment: Record<string, string>;
  private readonly table: dynamodb.ITable | undefined;
  private readonly tableArnExport: string | undefined;

  /**
   * @param scope - the stack of the functions that use the store (secrets are imported there)
   * @param config - the deployment's settings
   * @param storage - the imported storage resources
   */
  constructor(
    private readonly scope: Construct,
    private readonly config: AppConfig,
    storage: ImportedStorage,
  ) {
    if (config.storageBackend === 'azure') {
      this.environment = { STORAGE_BACKEND: 'azure' };
    } else {
      if (storage.table === undefined) throw new Error('The DynamoDB storage backend needs its table.');
      this.table = storage.table;
      this.tableArnExport = storage.exportNames.tableArn;
      this.environment = { STORAGE_BACKEND: 'dynamodb', DYNAMODB_TABLE: storage.table.tableName };
    }
  }

  /**
   * Lets a function use the store: on DynamoDB, read the table, write it, or (`settle`) write only
   * the items of the tables the settle step writes (SETTLE_WRITE_TABLES, by the partition key's
   * table prefix); on Azure, its access level's secret of signatures, with its ARN in the environment.
   *
   * @param fn - the function
   * @param level - its Azure access level
   * @param access - what it writes (DynamoDB)
   */
  grant(fn: ReceiptFunction, level: TableAccessLevel, access: 'read' | 'settle' | 'readWrite'): void {
    if (this.table) {
      if (access === 'readWrite') this.table.grantReadWriteData(fn.role);
      else this.table.grantReadData(fn.role);
      if (access === 'settle') {
        fn.role.addToPolicy(
          new iam.PolicyStatement({
            sid: 'SettleWrites',
            // A transaction's parts are checked as these actions, each against its item's key.
            actions: [
              'dynamodb:PutItem',
              'dynamodb:UpdateItem',
              'dynamodb:DeleteItem',
              'dynamodb:BatchWriteItem',
              'dynamodb:ConditionCheckItem',
            ],
            resources: [this.table.tableArn],
            conditions: {
              'ForAllValues:StringLike': {
                'dynamodb:LeadingKeys': SETTLE_WRITE_TABLES.map(tableLeadingKeys),
              },
            },
          }),
        );
      }
      this.acknowledgeIndexWildcard(fn.role);
      return;
    }
    const secret = azureTablesAccessSecret(this.scope, this.config, level);
    secret.grantRead(fn.role);
    fn.function.addEnvironment('AZURE_TABLES_SECRET_ARN', secret.secretArn);
  }

  private acknowledgeIndexWildcard(role: iam.Role): void {
    if (this.tableArnExport === undefined || TABLE_KEY_SCHEMA.globalSecondaryIndexes.length === 0) return;
    Validations.of(role).acknowledge({
      id: importedWildcardFinding(this.tableArnExport, '/index/*'),
      reason:
        "Queries on the table's own secondary indexes; the grant covers the indexes of this one table only.",
    });
  }
}

/**
 * The secret of an access level's Azure table signatures, imported once per stack.
 *
 * @param scope - any construct of the stack
 * @param config - the deployment's settings (azureTablesSecretName is the secrets' common prefix)
 * @param level - the access level
 */
export function azureTablesAccessSecret(
  scope: Construct,
  config: AppConfig,
  level: TableAccessLevel,
): secretsmanager.ISecret {
  return importSecret(
    scope,
    `AzureTables${level.charAt(0).toUpperCase()}${level.slice(1)}Secret`,
    `${config.azureTablesSecretName ?? ''}/${level}`,
  );
}

/**
 * A Secrets Manager secret made outside the app (it holds credentials no template may contain),
 * imported once per stack.
 *
 * @param scope - any construct of the stack that uses the secret
 * @param id - construct id of the import
 * @param name - the secret's name
 */
export function importSecret(scope: Construct, id: string, name: string): secretsmanager.ISecret {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild(id);
  if (existing !== undefined) return existing as secretsmanager.ISecret;
  return secretsmanager.Secret.fromSecretNameV2(stack, id, name);
}
