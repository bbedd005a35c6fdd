/**
 * Acknowledgements of cdk-nag findings on resources the CDK itself adds (deployment helpers), whose
 * code and policies we do not write. Each finding is acknowledged by its exact id, with a reason.
 */
import { CfnResource, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference';
import type { IConstruct } from 'constructs';

interface ResolvedStatement {
  Action?: string | string[];
  Resource?: unknown;
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * The ids of the AwsSolutions-IAM5 findings a policy raises: one per wildcard action or resource,
 * named the way cdk-nag names them.
 *
 * @param policy - the policy to inspect
 */
export function wildcardFindings(policy: iam.Policy): string[] {
  const document = Stack.of(policy).resolve(policy.document) as
    { Statement?: ResolvedStatement[] } | undefined;
  const findings = new Set<string>();
  for (const statement of document?.Statement ?? []) {
    for (const action of asList(statement.Action)) {
      if (action.includes('*')) findings.add(`AwsSolutions-IAM5[Action::${action}]`);
    }
    for (const resource of asList(statement.Resource)) {
      const flat = flattenCfnReference(resource);
      if (flat.includes('*')) findings.add(`AwsSolutions-IAM5[Resource::${flat}]`);
    }
  }
  return [...findings];
}

/**
 * Acknowledges the findings on the helper functions BucketDeployment brings: the AWS managed basic
 * execution role and the wildcards it needs to copy files from the CDK asset bucket into the site
 * bucket and to invalidate the distribution.
 *
 * @param helper - the helper's construct (a child of the stack named Custom::CDKBucketDeployment…)
 */
export function acknowledgeDeploymentHelper(helper: IConstruct): void {
  const v = Validations.of(helper);
  v.acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason:
      'CDK deployment helper: it writes its logs with the AWS managed basic execution role, as the CDK defines it.',
  });
  for (const child of helper.node.findAll()) {
    if (child instanceof iam.Policy) {
      for (const id of wildcardFindings(child)) {
        v.acknowledge({
          id,
          reason:
            'CDK deployment helper: it reads the build from the CDK asset bucket, syncs and prunes the site bucket and invalidates the distribution, which take object-level wildcards.',
        });
      }
    }
  }
  for (const child of helper.node.findAll()) {
    if (child instanceof CfnResource && child.cfnResourceType === 'AWS::Lambda::Function') {
      v.acknowledge({
        id: 'AwsSolutions-L1',
        reason: 'CDK deployment helper: its runtime is chosen by the CDK release in use and moves with it.',
      });
      break;
    }
  }
}
