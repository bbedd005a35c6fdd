/**
 * What must live in us-east-1 for CloudFront: the WAF web ACL of the distribution. WAF takes a web
 * ACL of scope CLOUDFRONT only in us-east-1, whatever region the rest of the app is in, so it has a
 * stack of its own there. Its ARN is kept in an SSM parameter in us-east-1, which the web stack reads
 * at deploy (see WebStack), so the web stack may be in any region.
 */
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import type { AppConfig } from './config';

/** The only region where WAF takes a web ACL for CloudFront. */
export const EDGE_REGION = 'us-east-1';

/** The SSM parameter (in us-east-1) holding the web ACL's ARN. */
export const WEB_ACL_ARN_PARAMETER = '/receipt-tracker/edge/web-acl-arn';

/** Uploads one IP address may make in 5 minutes, at the edge (each may become a Textract call). */
export const WAF_UPLOADS_PER_IP = 100;

export interface EdgeStackProps extends StackProps {
  readonly config: AppConfig;
}

export class EdgeStack extends Stack {
  readonly webAcl: wafv2.CfnWebACL;
  readonly webAclArnParameter: ssm.StringParameter;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: 'receipt-tracker',
      description: 'Receipt Tracker: per-IP rate limits in front of the site and /api',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('receipt-tracker'),
      rules: [
        {
          // Uploads first: each one may cost a Textract call, so they get the tighter limit.
          name: 'UploadsPerIp',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: WAF_UPLOADS_PER_IP,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'STARTS_WITH',
                  searchString: '/api/upload',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            },
          },
          visibilityConfig: visibility('uploads-per-ip'),
        },
        {
          name: 'RequestsPerIp',
          priority: 1,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: props.config.wafRequestsPerIp,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
            },
          },
          visibilityConfig: visibility('requests-per-ip'),
        },
      ],
    });

    this.webAclArnParameter = new ssm.StringParameter(this, 'WebAclArn', {
      parameterName: WEB_ACL_ARN_PARAMETER,
      description: "The Receipt Tracker distribution's WAF web ACL (read by the web stack at deploy)",
      stringValue: this.webAcl.attrArn,
    });

    new CfnOutput(this, 'WebAclArnOutput', {
      description: "The distribution's WAF web ACL",
      value: this.webAcl.attrArn,
    });
  }
}
