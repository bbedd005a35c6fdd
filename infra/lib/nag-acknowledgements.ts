/**
 * Acknowledgements of cdk-nag findings on resources the CDK itself adds (the functions behind
 * BucketDeployment and AwsCustomResource), whose code and policies we do not write. Each finding is
 * acknowledged by its exact id, with a reason.
 */
import { Stack, Validations } from 'aws-cdk-lib';
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
 * Acknowledges the findings on a function the CDK brings (BucketDeployment, AwsCustomResource):
 * the AWS managed basic execution role, the CDK's choice of runtime and the wildcards of the policy
 * the CDK writes for the function's job.
 *
 * @param provided - the function's construct (a child of the stack)
 * @param job - what the function does, for the reasons, e.g. "copies the SPA into the site bucket"
 * @param options - whether the CDK's runtime for it is behind the latest (cdk-nag L1)
 */
export function acknowledgeCdkProvidedFunction(
  provided: IConstruct,
  job: string,
  options: { olderRuntime: boolean },
): void {
  const v = Validations.of(provided);
  v.acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason: `Function provided by the CDK that ${job}: it writes its logs with the AWS managed basic execution role, as the CDK defines it.`,
  });
  for (const child of provided.node.findAll()) {
    if (child instanceof iam.Policy) {
      for (const id of wildcardFindings(child)) {
        v.acknowledge({
          id,
          reason: `Function provided by the CDK that ${job}: the CDK writes this wildcard into its policy for that job.`,
        });
      }
    }
  }
  if (options.olderRuntime) {
    v.acknowledge({
      id: 'AwsSolutions-L1',
      reason: `Function provided by the CDK that ${job}: its runtime is chosen by the CDK release in use and moves with it.`,
    });
  }
}
