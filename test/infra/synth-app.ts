/**
 * Synthesises the CDK app in-process for template tests. Bundling is skipped (context
 * `aws:cdk:bundling-stacks` = []) unless asked for: esbuild for 14 functions takes a while, and the
 * templates are the same either way. cdk-nag runs as in `cdk synth`: a finding fails the synth.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { buildReceiptsApp, type ReceiptsApp } from '../../infra/lib/receipts-app';

/** A complete, valid context, as a deployer would put it in cdk.json. */
export const TEST_CONTEXT = {
  firebaseProjectId: 'receipts-test-1234',
  firebaseWebConfig: {
    apiKey: 'AIzaTestKey',
    authDomain: 'receipts-test-1234.firebaseapp.com',
    projectId: 'receipts-test-1234',
    appId: '1:123456789012:web:abcdef',
    messagingSenderId: '123456789012',
    vapidKey: 'BTestVapidKey',
  },
  firebaseServiceAccountSecretName: 'receipts/firebase-service-account',
  adminEmails: ['admin@example.com', 'second@example.com'],
};

export interface SynthOptions {
  /** Context values added to (or replacing) TEST_CONTEXT. */
  readonly context?: Record<string, unknown>;
  /** The SPA folder; by default one that does not exist, so the placeholder page is deployed. */
  readonly webDist?: string;
  /** Stacks whose functions are really bundled (glob patterns); none by default. */
  readonly bundlingStacks?: string[];
  /** Where the cloud assembly goes; a new temp folder by default. */
  readonly outdir?: string;
}

export interface SynthesisedApp extends ReceiptsApp {
  readonly app: App;
  readonly assembly: CloudAssembly;
  readonly templates: {
    readonly storage: Template;
    readonly pipeline: Template;
    readonly api: Template;
    readonly web: Template;
    readonly monitoring: Template;
  };
  /** The template of the us-east-1 stack with the WAF web ACL; undefined when `webAclArn` names one. */
  readonly edgeTemplate: Template | undefined;
}

const createdFolders: string[] = [];

/** A new temp folder, removed by {@link removeTempFolders}. */
export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  createdFolders.push(folder);
  return folder;
}

/** Removes the cloud assemblies and folders the tests of this file made (each holds ~20 MB). */
export function removeTempFolders(): void {
  for (const folder of createdFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/**
 * Builds and synthesises the app.
 *
 * @param options - context and SPA folder
 */
export function synthApp(options: SynthOptions = {}): SynthesisedApp {
  const outdir = options.outdir ?? tempFolder('receipts-cdk-');
  const app = new App({
    outdir,
    context: {
      'aws:cdk:bundling-stacks': options.bundlingStacks ?? [],
      ...TEST_CONTEXT,
      ...options.context,
    },
  });
  const built = buildReceiptsApp(app, {
    webDist: options.webDist ?? join(outdir, 'no-web-build'),
  });
  const assembly = app.synth();
  const template = (stack: Stack) => Template.fromJSON(assembly.getStackByName(stack.stackName).template);
  return {
    ...built,
    app,
    assembly,
    templates: {
      storage: template(built.storage),
      pipeline: template(built.pipeline),
      api: template(built.api),
      web: template(built.web),
      monitoring: template(built.monitoring),
    },
    edgeTemplate: built.edge === undefined ? undefined : template(built.edge),
  };
}

/** One statement of an IAM policy, as CloudFormation holds it. */
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Sid?: string;
  Condition?: unknown;
}

/**
 * Every statement of the policies attached to a role.
 *
 * @param template - the template of the role's stack
 * @param role - the role
 */
export function statementsOf(template: Template, role: iam.Role): Statement[] {
  const stack = Stack.of(role);
  const roleId = stack.getLogicalId(role.node.defaultChild as CfnElement);
  const policies = template.findResources('AWS::IAM::Policy');
  const statements: Statement[] = [];
  for (const policy of Object.values(policies)) {
    const properties = policy.Properties as {
      Roles: { Ref: string }[];
      PolicyDocument: { Statement: Statement[] };
    };
    if (properties.Roles.some((ref) => ref.Ref === roleId))
      statements.push(...properties.PolicyDocument.Statement);
  }
  const inline = template.findResources('AWS::IAM::Role')[roleId]?.Properties as
    | { Policies?: { PolicyDocument: { Statement: Statement[] } }[]; ManagedPolicyArns?: unknown[] }
    | undefined;
  for (const policy of inline?.Policies ?? []) statements.push(...policy.PolicyDocument.Statement);
  return statements;
}

/** The actions a role is allowed, flattened. */
export function actionsOf(template: Template, role: iam.Role): string[] {
  return statementsOf(template, role)
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
}

/** The statements of a role that allow `action`. */
export function statementsAllowing(template: Template, role: iam.Role, action: string): Statement[] {
  return statementsOf(template, role).filter(
    (s) => s.Effect === 'Allow' && (Array.isArray(s.Action) ? s.Action : [s.Action]).includes(action),
  );
}

/** The CloudFormation properties of a construct's L1 resource. */
export function propertiesOf(template: Template, element: CfnElement): Record<string, unknown> {
  const id = Stack.of(element).getLogicalId(element);
  const resource = template.toJSON().Resources[id] as { Properties: Record<string, unknown> } | undefined;
  if (resource === undefined) throw new Error(`No resource ${id} in the template`);
  return resource.Properties;
}
