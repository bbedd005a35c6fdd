/**
 * One Lambda function built from a handler in lambdas/src/handlers, with the settings every function
 * of the app shares: Node.js 22 on arm64, an esbuild bundle with source maps, JSON logs in a log group
 * of its own, and a role that starts with nothing but writing to that log group.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { BUNDLE_ENTRY, HANDLERS_DIR, bundlingOf, buildFunction } from './bundling';
import type { AppConfig } from './config';

export { HANDLERS_DIR, REPO_ROOT } from './bundling';

export interface ReceiptFunctionProps {
  /** The handler file under lambdas/src/handlers, without `.ts`. */
  readonly handler: string;
  readonly config: AppConfig;
  readonly environment: Record<string, string>;
  readonly description: string;
  /** @default 15 seconds */
  readonly timeout?: Duration;
  /** @default 512 MB */
  readonly memorySize?: number;
  /** Modules the handler only imports in modes this deployment never uses; kept out of the bundle. */
  readonly unusedModules?: readonly string[];
}

export class ReceiptFunction extends Construct {
  /** The handler's source file. */
  readonly entry: string;
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ReceiptFunctionProps) {
    super(scope, id);
    const entry = join(HANDLERS_DIR, `${props.handler}.ts`);
    if (!existsSync(entry)) {
      throw new Error(`The handler ${props.handler} has no source file at ${entry}.`);
    }
    this.entry = entry;

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.config.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    // Instead of the AWS managed basic execution role (logs on every group), this role may write to
    // this function's own log group only; each stack then adds what the route needs.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${props.handler}`,
    });
    this.role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    );

    const externalModules = [
      ...new Set([
        ...bundlingOf(props.handler, props.config.storageBackend).externalModules,
        ...(props.unusedModules ?? []),
      ]),
    ];
    this.function = new lambda.Function(this, 'Function', {
      // esbuild from npm, on this machine (no Docker): the build of bundling.ts, which splits what is
      // loaded on first use into chunks beside index.mjs (NodejsFunction writes one file only).
      code: lambda.Code.fromAsset(HANDLERS_DIR, {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never run: the local build below always builds or throws. The image is required; the
          // command names what is built, which also keys CDK's asset cache per function (the local
          // build itself is not part of that key).
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
          command: ['esbuild', props.handler, ...externalModules.map((m) => `--external:${m}`)],
          local: {
            tryBundle(outputDir) {
              buildFunction(props.handler, externalModules, outputDir);
              return true;
            },
          },
        },
      }),
      handler: `${BUNDLE_ENTRY.replace(/\.mjs$/, '')}.handler`,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(15),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the LTS line the code is written and tested for (Node 20 locally, 22 on Lambda); moving to a newer runtime is a deliberate, tested upgrade.',
    });
  }
}
