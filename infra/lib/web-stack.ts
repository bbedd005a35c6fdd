/**
 * The site: the built SPA in a private bucket behind CloudFront (origin access control), with /api/*
 * on the same distribution routed to the HTTP API, so the browser talks to one origin and needs no
 * CORS. The SPA reads its Firebase settings from /config.json, written here from the CDK context.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  Annotations,
  CfnOutput,
  Duration,
  RemovalPolicy,
  Stack,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import { ORIGIN_VERIFY_HEADER } from '@receipts/core/contract/routes';
import type { AppConfig } from './config';
import { EDGE_REGION, WEB_ACL_ARN_PARAMETER } from './edge-stack';
import { acknowledgeCdkProvidedFunction } from './nag-acknowledgements';
import { REPO_ROOT } from './receipt-function';

/** Where `npm run build:web` writes the SPA. */
export const WEB_DIST = join(REPO_ROOT, 'web/dist');

/**
 * Runs on every viewer request for the SPA (not /api/*): a path whose last segment has no file
 * extension is a client-side route, so it gets the app shell. Doing this here instead of with
 * distribution-wide error responses keeps the API's own 403 and 404 answers intact.
 */
export const SPA_FALLBACK_FUNCTION_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var lastSegment = uri.substring(uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

/**
 * The Content-Security-Policy of the site: our own scripts plus what Firebase sign-in and messaging
 * load and call. Fluent UI injects styles at run time, hence 'unsafe-inline' for styles only.
 *
 * @param authDomain - the Firebase auth domain, whose sign-in page runs in a frame
 */
export function contentSecurityPolicy(authDomain: string): string {
  return [
    "default-src 'self'",
    "script-src 'self' https://apis.google.com https://www.gstatic.com",
    "connect-src 'self' https://*.googleapis.com https://securetoken.googleapis.com https://identitytoolkit.googleapis.com https://firebaseinstallations.googleapis.com https://fcmregistrations.googleapis.com",
    `frame-src https://${authDomain}`,
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The body of /config.json: public values only (a Firebase web API key is not a secret). */
export function siteConfig(config: AppConfig): Record<string, unknown> {
  const { vapidKey, ...firebase } = config.firebaseWebConfig;
  return {
    firebase,
    authEmulatorUrl: null,
    vapidKey: vapidKey ?? null,
    adminEmail: config.adminEmails[0] ?? null,
  };
}

const PLACEHOLDER_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Receipt Tracker</title></head>
<body>
<h1>Receipt Tracker</h1>
<p>The cloud stack is deployed, but without the web app: it was not built when this stack was synthesised.</p>
<p>Run <code>npm run build:web</code>, then <code>npx cdk deploy --all</code> again.</p>
</body>
</html>
`;

/**
 * Build output that is never uploaded: source maps would publish the app's source. The production
 * build does not write them (web/vite.config.ts); this keeps a local build with maps from shipping.
 */
export const NOT_DEPLOYED = ['*.map', '**/*.map'];

export interface WebStackProps extends StackProps {
  readonly config: AppConfig;
  /** The execute-api host name of the HTTP API. */
  readonly apiDomainName: string;
  /** The value CloudFront adds to every /api request (ApiStack.originSecret). */
  readonly originSecret: secretsmanager.ISecret;
  /** The built SPA; when the folder does not exist a placeholder page is deployed. @default web/dist */
  readonly webDist?: string;
}

export class WebStack extends Stack {
  readonly siteBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  readonly spaFallback: cloudfront.Function;
  /** Whether the built SPA was found and deployed (else a placeholder page is). */
  readonly deploysBuiltSite: boolean;
  /** The ARN of the distribution's WAF web ACL (config.webAclArn, or read from the edge stack's parameter). */
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const { config } = props;
    const webDist = props.webDist ?? WEB_DIST;

    this.siteBucket = new s3.Bucket(this, 'Site', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Only build output lives here; it is deployed again from the repository at will.
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });
    Validations.of(this.siteBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The bucket holds only the public build of the SPA, read by CloudFront alone; server access logs would add a bucket for no insight.',
    });

    this.responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Receipt Tracker: CSP allowing Firebase sign-in, HSTS, no-sniff, referrer policy',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: contentSecurityPolicy(config.firebaseWebConfig.authDomain),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          // The camera is used to photograph receipts; nothing else is.
          {
            header: 'Permissions-Policy',
            value: 'camera=(self), microphone=(), geolocation=(), payment=()',
            override: true,
          },
        ],
      },
    });

    this.spaFallback = new cloudfront.Function(this, 'SpaFallback', {
      comment: 'Serves index.html for client-side routes',
      code: cloudfront.FunctionCode.fromInline(SPA_FALLBACK_FUNCTION_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const apiOrigin = new origins.HttpOrigin(props.apiDomainName, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      // Overrides a header of that name sent by the viewer; the API refuses requests without it.
      customHeaders: { [ORIGIN_VERIFY_HEADER]: props.originSecret.secretValue.unsafeUnwrap() },
    });

    this.webAclArn = config.webAclArn ?? readEdgeWebAclArn(this, config);

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Receipt Tracker',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      webAclId: this.webAclArn,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.siteBucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [
          { function: this.spaFallback, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
      },
      additionalBehaviors: {
        '/api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.responseHeadersPolicy,
          compress: true,
        },
      },
    });
    acknowledgeDistributionRules(this.distribution);

    this.deploysBuiltSite = existsSync(join(webDist, 'index.html'));
    const configJson = s3deploy.Source.jsonData('config.json', siteConfig(config));
    if (this.deploysBuiltSite) {
      const hashedAssets = join(webDist, 'assets');
      let assetsDeployment: s3deploy.BucketDeployment | undefined;
      if (existsSync(hashedAssets)) {
        // File names under assets/ carry a content hash: they never change, so browsers keep them.
        assetsDeployment = new s3deploy.BucketDeployment(this, 'DeployAssets', {
          sources: [s3deploy.Source.asset(hashedAssets, { exclude: NOT_DEPLOYED })],
          destinationBucket: this.siteBucket,
          destinationKeyPrefix: 'assets/',
          cacheControl: [s3deploy.CacheControl.fromString('public, max-age=31536000, immutable')],
          // Old hashed files stay, so a page loaded before a deploy can still fetch its chunks.
          prune: false,
        });
      }
      const siteDeployment = new s3deploy.BucketDeployment(this, 'DeploySite', {
        sources: [s3deploy.Source.asset(webDist, { exclude: ['assets/**', ...NOT_DEPLOYED] }), configJson],
        destinationBucket: this.siteBucket,
        exclude: ['assets/*'],
        cacheControl: [s3deploy.CacheControl.noCache()],
        distribution: this.distribution,
        distributionPaths: ['/*'],
      });
      // The new index.html goes live only once the chunks it names are in place.
      if (assetsDeployment !== undefined) siteDeployment.node.addDependency(assetsDeployment);
    } else {
      Annotations.of(this).addWarningV2(
        'receipts:web-not-built',
        `${webDist} has no index.html, so a placeholder page is deployed. Run "npm run build:web" before "cdk deploy".`,
      );
      new s3deploy.BucketDeployment(this, 'DeploySite', {
        sources: [s3deploy.Source.data('index.html', PLACEHOLDER_PAGE), configJson],
        destinationBucket: this.siteBucket,
        cacheControl: [s3deploy.CacheControl.noCache()],
        distribution: this.distribution,
        distributionPaths: ['/*'],
      });
    }
    for (const child of this.node.children) {
      if (child.node.id.startsWith('Custom::CDKBucketDeployment')) {
        acknowledgeCdkProvidedFunction(
          child,
          'copies the SPA into the site bucket and invalidates the distribution',
          {
            olderRuntime: true,
          },
        );
      }
    }

    new CfnOutput(this, 'SiteUrl', {
      description: 'The Receipt Tracker site',
      value: `https://${this.distribution.distributionDomainName}`,
    });
  }
}

/**
 * The WAF web ACL's ARN, read at deploy from the SSM parameter the edge stack writes in us-east-1
 * (a stack in another region cannot reference it directly, and one without a fixed region cannot use
 * the CDK's cross-region references). Deploy the edge stack first: `cdk deploy --all` does.
 */
function readEdgeWebAclArn(stack: Stack, config: AppConfig): string {
  const read: cr.AwsSdkCall = {
    service: 'SSM',
    action: 'getParameter',
    parameters: { Name: WEB_ACL_ARN_PARAMETER },
    region: EDGE_REGION,
    physicalResourceId: cr.PhysicalResourceId.of(WEB_ACL_ARN_PARAMETER),
  };
  const reader = new cr.AwsCustomResource(stack, 'EdgeWebAclArn', {
    resourceType: 'Custom::EdgeWebAclArn',
    onCreate: read,
    onUpdate: read,
    policy: cr.AwsCustomResourcePolicy.fromSdkCalls({
      resources: [
        stack.formatArn({
          service: 'ssm',
          region: EDGE_REGION,
          resource: 'parameter',
          resourceName: WEB_ACL_ARN_PARAMETER.replace(/^\//, ''),
        }),
      ],
    }),
    installLatestAwsSdk: false,
    logGroup: new logs.LogGroup(stack, 'EdgeWebAclArnLogs', {
      retention: config.logRetentionDays as logs.RetentionDays,
      removalPolicy: RemovalPolicy.DESTROY,
    }),
  });
  const provider = stack.node.tryFindChild(
    `AWS${cr.AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`,
  );
  if (provider !== undefined)
    acknowledgeCdkProvidedFunction(provider, "reads the WAF web ACL's ARN from us-east-1", {
      olderRuntime: false,
    });
  return reader.getResponseField('Parameter.Value');
}

function acknowledgeDistributionRules(distribution: cloudfront.Distribution): void {
  const v = Validations.of(distribution);
  v.acknowledge({
    id: 'AwsSolutions-CFR1',
    reason: 'Receipts are scanned wherever their owners travel; there is no country to block.',
  });
  v.acknowledge({
    id: 'AwsSolutions-CFR3',
    reason:
      'Standard logs need an ACL-enabled log bucket; API requests are logged by API Gateway access logs and the functions, and the site itself is static.',
  });
  v.acknowledge({
    id: 'AwsSolutions-CFR4',
    reason:
      'The distribution uses the default *.cloudfront.net certificate, whose minimum protocol CloudFront fixes; a custom domain with its own certificate can set TLSv1.2_2021.',
  });
}
