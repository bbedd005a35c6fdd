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
/** Uploads one signed-in user (one ID token) may make in 5 minutes, at the edge. */
export const WAF_UPLOADS_PER_USER = 50;

/** The AWS managed rule groups in front of the site, in the order they are evaluated. */
export const WAF_MANAGED_RULE_GROUPS = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesKnownBadInputsRuleSet',
  'AWSManagedRulesCommonRuleSet',
] as const;

/**
 * The label the common rule set gives a request whose body is over 8 KB (its SizeRestrictions_BODY
 * rule, set to count below): such a request is blocked by a rule of ours, except on /api/upload,
 * whose JSON body carries the image (up to about 5.6 MB as base64) and is size-checked by the
 * function itself (413 past MAX_BODY_BYTES).
 */
export const WAF_BODY_SIZE_LABEL = 'awswaf:managed:aws:core-rule-set:SizeRestrictions_Body';

const UPLOAD_PATH = '/api/upload';

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

    const startsWith = (path: string): wafv2.CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'STARTS_WITH',
        searchString: path,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    // A user is known by the ID token in Authorization (verified by the API behind; here only the
    // key of the count). A request without the header is not counted per user: the per-IP rules
    // count every request.
    const perUser: wafv2.CfnWebACL.RateBasedStatementCustomKeyProperty[] = [
      { header: { name: 'authorization', textTransformations: [{ priority: 0, type: 'NONE' }] } },
    ];
    const rate = (
      name: string,
      limit: number,
      key: 'user' | 'ip',
      scopeDownStatement?: wafv2.CfnWebACL.StatementProperty,
    ): Omit<wafv2.CfnWebACL.RuleProperty, 'priority'> => ({
      name,
      action: { block: {} },
      statement: {
        rateBasedStatement: {
          limit,
          evaluationWindowSec: 300,
          ...(key === 'user'
            ? { aggregateKeyType: 'CUSTOM_KEYS', customKeys: perUser }
            : { aggregateKeyType: 'IP' }),
          ...(scopeDownStatement ? { scopeDownStatement } : {}),
        },
      },
      visibilityConfig: visibility(name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()),
    });
    const managed = (
      name: (typeof WAF_MANAGED_RULE_GROUPS)[number],
      ruleActionOverrides?: wafv2.CfnWebACL.RuleActionOverrideProperty[],
    ): Omit<wafv2.CfnWebACL.RuleProperty, 'priority'> => ({
      name,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name,
          ...(ruleActionOverrides ? { ruleActionOverrides } : {}),
        },
      },
      visibilityConfig: visibility(name),
    });

    const rules: Omit<wafv2.CfnWebACL.RuleProperty, 'priority'>[] = [
      // Uploads first: each one may cost a Textract call, so they get the tighter limits, per user
      // (one account cannot use the whole API's upload throttle) and per IP.
      rate('UploadsPerUser', WAF_UPLOADS_PER_USER, 'user', startsWith(UPLOAD_PATH)),
      rate('UploadsPerIp', WAF_UPLOADS_PER_IP, 'ip', startsWith(UPLOAD_PATH)),
      rate('ApiRequestsPerUser', props.config.wafRequestsPerUser, 'user', startsWith('/api/')),
      rate('RequestsPerIp', props.config.wafRequestsPerIp, 'ip'),
      managed('AWSManagedRulesAmazonIpReputationList'),
      managed('AWSManagedRulesKnownBadInputsRuleSet'),
      managed('AWSManagedRulesCommonRuleSet', [
        { name: 'SizeRestrictions_BODY', actionToUse: { count: {} } },
      ]),
      {
        // The common rule set's body size rule, but for uploads (see WAF_BODY_SIZE_LABEL).
        name: 'BodySizeExceptUploads',
        action: { block: {} },
        statement: {
          andStatement: {
            statements: [
              { labelMatchStatement: { scope: 'LABEL', key: WAF_BODY_SIZE_LABEL } },
              { notStatement: { statement: startsWith(UPLOAD_PATH) } },
            ],
          },
        },
        visibilityConfig: visibility('body-size-except-uploads'),
      },
    ];

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: 'receipt-tracker',
      description:
        'Receipt Tracker: rate limits per user and per IP, AWS managed rule groups, in front of the site and /api',
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('receipt-tracker'),
      rules: rules.map((rule, priority) => ({ ...rule, priority })),
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
