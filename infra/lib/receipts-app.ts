/**
 * The whole cloud deployment: one stack per concern, wired together, with the cdk-nag AwsSolutions
 * checks run at synth so a finding fails it unless it is fixed or acknowledged with a reason.
 */
import { Annotations, Validations, type App, type Environment } from 'aws-cdk-lib';
import { DEFAULT_CROSS_STACK_REFERENCES } from 'aws-cdk-lib/cx-api';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ApiStack } from './api-stack';
import { isDemoProject, readConfig, type AppConfig } from './config';
import { EDGE_REGION, EdgeStack } from './edge-stack';
import { MonitoringStack } from './monitoring-stack';
import { PipelineStack } from './pipeline-stack';
import { StorageStack } from './storage-stack';
import { WebStack } from './web-stack';

export interface ReceiptsApp {
  readonly config: AppConfig;
  readonly storage: StorageStack;
  readonly pipeline: PipelineStack;
  readonly api: ApiStack;
  readonly web: WebStack;
  readonly monitoring: MonitoringStack;
  /** The us-east-1 stack with the distribution's WAF web ACL; none when `webAclArn` names one. */
  readonly edge: EdgeStack | undefined;
}

export interface ReceiptsAppOptions {
  /** Where to deploy; by default the account and region of the AWS credentials in use. */
  readonly env?: Environment;
  /** The built SPA folder. @default web/dist */
  readonly webDist?: string;
}

/**
 * Adds the app's stacks to a CDK app.
 *
 * @param app - the CDK app; its context holds the settings (see config.ts)
 * @param options - deployment target and SPA folder
 * @throws ConfigurationError when a context value is missing or wrong
 */
export function buildReceiptsApp(app: App, options: ReceiptsAppOptions = {}): ReceiptsApp {
  const config = readConfig(app.node);
  // Outputs another stack imports cannot be removed while imported ("strong", today's default),
  // stated so that the CDK need not warn about it.
  if (app.node.tryGetContext(DEFAULT_CROSS_STACK_REFERENCES) === undefined) {
    app.node.setContext(DEFAULT_CROSS_STACK_REFERENCES, 'strong');
  }
  const env = options.env ?? {
    account: process.env.CDK_DEFAULT_ACCOUNT,
    region: process.env.CDK_DEFAULT_REGION,
  };
  const tags = { application: 'receipt-tracker' };

  const storage = new StorageStack(app, 'ReceiptsStorage', {
    env,
    tags,
    config,
    description: 'Receipt Tracker: table store and receipt images',
  });
  const pipeline = new PipelineStack(app, 'ReceiptsPipeline', {
    env,
    tags,
    config,
    storage: storage.exportNames,
    description: 'Receipt Tracker: scan queue and the analyze function',
  });
  pipeline.addStackDependency(storage, 'imports the table and the images bucket by export name');
  const api = new ApiStack(app, 'ReceiptsApi', {
    env,
    tags,
    config,
    storage: storage.exportNames,
    queue: pipeline.queue,
    description: 'Receipt Tracker: HTTP API, one function per route',
  });
  api.addStackDependency(storage, 'imports the table and the images bucket by export name');
  // WAF takes CloudFront's web ACL only in us-east-1, wherever the rest is deployed.
  const edge =
    config.webAclArn === undefined
      ? new EdgeStack(app, 'ReceiptsEdge', {
          env: { account: env.account, region: EDGE_REGION },
          tags,
          config,
          description: "Receipt Tracker: the distribution's WAF web ACL (us-east-1, as CloudFront requires)",
        })
      : undefined;
  const web = new WebStack(app, 'ReceiptsWeb', {
    env,
    tags,
    config,
    apiDomainName: api.apiDomainName,
    originSecret: api.originSecret,
    ...(options.webDist === undefined ? {} : { webDist: options.webDist }),
    description: 'Receipt Tracker: the site on CloudFront, with /api routed to the API',
  });
  if (edge !== undefined) web.addStackDependency(edge, "reads the web ACL's ARN that the edge stack stores");
  const monitoring = new MonitoringStack(app, 'ReceiptsMonitoring', {
    env,
    tags,
    config,
    httpApi: api.httpApi,
    apiFunctions: api.functions,
    analyzeFunction: pipeline.analyzeFunction,
    queue: pipeline.queue,
    deadLetterQueue: pipeline.deadLetterQueue,
    description: 'Receipt Tracker: dashboard and alarms',
  });

  if (isDemoProject(config)) {
    Annotations.of(web).addWarningV2(
      'receipts:demo-firebase-project',
      `firebaseProjectId is the placeholder "${config.firebaseProjectId}": the site would deploy, but nobody could sign in. Set your Firebase project in cdk.json (see infra/README.md) before "cdk deploy".`,
    );
  }

  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { config, storage, pipeline, api, web, monitoring, edge };
}
