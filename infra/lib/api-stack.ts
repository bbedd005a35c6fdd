/**
 * The /api routes: an HTTP API with one function per route of core's ROUTES, each granted only what
 * its route needs. Routes that need a signed-in user also sit behind a JWT authorizer for the Firebase
 * project, so a request without a valid Firebase ID token never reaches a function; the functions
 * verify the token themselves as well.
 */
import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { RouteName } from '@receipts/core/contract/routes';
import type { AppConfig } from './config';
import { MAX_SCAN_ATTEMPTS } from './pipeline-stack';
import { ReceiptFunction } from './receipt-function';
import { deployedRoutes, routeConstructId, tableAccessLevel } from './routes';
import {
  grantAppDataCache,
  grantDataExports,
  grantImages,
  importFirebaseSecret,
  sharedEnvironment,
} from './shared-environment';
import { importStorage, TableStoreAccess, type StorageExports } from './storage-stack';

/** Requests per second (and burst) of the routes throttled below the stage's 50/100. */
export const ROUTE_THROTTLES: Record<string, { rate: number; burst: number }> = {
  'POST /api/upload': { rate: 5, burst: 10 },
  'POST /api/retryScan': { rate: 5, burst: 10 },
  'POST /api/log': { rate: 10, burst: 20 },
};

export interface ApiStackProps extends StackProps {
  readonly config: AppConfig;
  /** The storage stack's export names; this stack must depend on the storage stack. */
  readonly storage: StorageExports;
  readonly queue: sqs.IQueue;
}

/** Seconds of the routes that may take longer than the others' 15: they go through all of a user's data. */
const LONG_ROUTES: Partial<Record<RouteName, number>> = { downloadMyData: 60, deleteAccount: 120 };

export class ApiStack extends Stack {
  readonly httpApi: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  /** One function per route, by route name. */
  readonly functions: Readonly<Record<RouteName, ReceiptFunction>>;
  readonly accessLogs: logs.LogGroup;
  /**
   * The host name CloudFront's /api/* origin reaches the API at: the API's own domain when
   * apiDomainName is set (the execute-api endpoint is then disabled), else the execute-api host.
   */
  readonly apiDomainName: string;
  /** The API's own domain, when apiDomainName is set. */
  readonly domain?: apigw.DomainName;
  /**
   * The value CloudFront sends in ORIGIN_VERIFY_HEADER, generated at deploy. The functions refuse a
   * request without it, so the execute-api endpoint is of no use without CloudFront (and its WAF).
   */
  readonly originSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;

    // The execute-api endpoint can only be turned off when the API has a domain of its own for
    // CloudFront to reach it at (API Gateway answers only there then); without one, CloudFront needs it,
    // and a request there without CloudFront's header is refused by the functions (403).
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'Receipt Tracker /api routes',
      createDefaultStage: false,
      disableExecuteApiEndpoint: config.apiDomainName !== undefined,
    });
    if (config.apiDomainName && config.apiCertificateArn) {
      this.domain = new apigw.DomainName(this, 'ApiDomain', {
        domainName: config.apiDomainName,
        certificate: acm.Certificate.fromCertificateArn(this, 'ApiCertificate', config.apiCertificateArn),
      });
    }
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: config.logRetentionDays as logs.RetentionDays,
    });
    this.stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 50, burstLimit: 100 },
      ...(this.domain ? { domainMapping: { domainName: this.domain } } : {}),
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTime',
            method: '$context.httpMethod',
            route: '$context.routeKey',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            bytes: '$context.responseLength',
            error: '$context.error.message',
            authorizerError: '$context.authorizer.error',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    // Tighter limits, across all callers, on the routes that cost money or take anonymous input: each
    // upload becomes a Textract call, and /api/log needs no sign-in. Per-user quotas are kept by the
    // upload use case itself.
    (this.stage.node.defaultChild as apigw.CfnStage).routeSettings = Object.fromEntries(
      Object.entries(ROUTE_THROTTLES).map(([routeKey, { rate, burst }]) => [
        routeKey,
        { ThrottlingRateLimit: rate, ThrottlingBurstLimit: burst },
      ]),
    );
    this.apiDomainName =
      config.apiDomainName ?? `${this.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;

    const authorizer = new HttpJwtAuthorizer(
      'FirebaseIdToken',
      `https://securetoken.google.com/${config.firebaseProjectId}`,
      {
        jwtAudience: [config.firebaseProjectId],
        identitySource: ['$request.header.Authorization'],
      },
    );

    this.originSecret = new secretsmanager.Secret(this, 'OriginVerify', {
      description:
        'Receipt Tracker: the header value CloudFront adds to /api requests; the API refuses others',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    Validations.of(this.originSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'A shared value between CloudFront and the API, not a credential of a user or service; rotating it means redeploying both, which `cdk deploy` does after changing it.',
    });

    const storage = importStorage(this, props.storage);
    const store = new TableStoreAccess(this, config, storage);

    const functions: Partial<Record<RouteName, ReceiptFunction>> = {};
    for (const route of deployedRoutes()) {
      const constructId = routeConstructId(route.name);
      const fn = new ReceiptFunction(this, constructId, {
        handler: route.handler,
        config,
        description: `${route.method} ${route.path}`,
        // An upload carries an image of up to several MB; it is stored, not analysed, in the request.
        // The data download reads every image of a user, and deleting an account every row and image.
        timeout: Duration.seconds(
          route.name === 'upload' ? 30 : route.name in LONG_ROUTES ? LONG_ROUTES[route.name]! : 15,
        ),
        memorySize:
          route.name === 'upload' || route.name === 'getImage' || route.name === 'downloadMyData'
            ? 1024
            : 512,
        environment: {
          ...sharedEnvironment(this, {
            config,
            store,
            storage,
            queue: props.queue,
            maxScanAttempts: MAX_SCAN_ATTEMPTS,
            // Token checks need only the project id (Google's public keys); push and deleting a
            // sign-in account (firebase-admin deleteUser) need the key.
            firebaseServiceAccount: route.name === 'deleteAccount',
          }),
          // A dynamic reference, resolved by CloudFormation at deploy: the template holds no value,
          // and the functions need no Secrets Manager call or grant (the log route stays without any).
          ORIGIN_VERIFY_SECRET: this.originSecret.secretValue.unsafeUnwrap(),
        },
      });
      const role = fn.role;
      const level = tableAccessLevel(route);
      if (level && route.table !== 'none') store.grant(fn, level, route.table);
      grantImages(role, storage, route.images);
      if (route.appDataCache) grantAppDataCache(role, storage);
      if (route.dataExports) grantDataExports(role, storage);
      if (route.sendsScanJobs) props.queue.grantSendMessages(role);
      if (route.name === 'deleteAccount') importFirebaseSecret(this, config).grantRead(role);
      functions[route.name] = fn;

      const routes = this.httpApi.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${constructId}Integration`, fn.function),
        ...(route.auth ? { authorizer } : {}),
      });
      if (!route.auth) {
        for (const r of routes) {
          Validations.of(r).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason: `${route.method} ${route.path} is open by design (spec: usage events may be sent before sign-in); it validates and size-limits its body and touches no data.`,
          });
        }
      }
    }
    this.functions = functions as Record<RouteName, ReceiptFunction>;

    if (this.domain) {
      new CfnOutput(this, 'ApiDomainTarget', {
        description: `Point ${config.apiDomainName} (a CNAME) at this host name`,
        value: this.domain.regionalDomainName,
      });
    }
    new CfnOutput(this, 'ApiUrl', {
      description: 'The API Gateway endpoint (the site also serves it under /api on its own domain)',
      value: this.domain ? `https://${this.apiDomainName}` : this.httpApi.apiEndpoint,
    });
  }
}
