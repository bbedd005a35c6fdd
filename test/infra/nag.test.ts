import { App, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { buildReceiptsApp } from '../../infra/lib/receipts-app';
import { removeTempFolders, synthApp, tempFolder, TEST_CONTEXT } from './synth-app';

interface Acknowledgement {
  path: string;
  id: string;
  reason: string;
}

/** Every acknowledged rule in the construct tree, where it was acknowledged and why. */
function acknowledgements(root: IConstruct): Acknowledgement[] {
  const found: Acknowledgement[] = [];
  for (const construct of root.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [key, reason] of Object.entries(entry.data as Record<string, string>)) {
        found.push({ path: construct.node.path, id: key.replace(/^annotation::/i, ''), reason });
      }
    }
  }
  return found;
}

function newApp(context: Record<string, unknown> = {}): App {
  return new App({
    outdir: tempFolder('receipts-cdk-'),
    context: { 'aws:cdk:bundling-stacks': [], ...TEST_CONTEXT, ...context },
  });
}

const CONFIGURATIONS: [string, Record<string, unknown>][] = [
  ['DynamoDB', {}],
  ['DynamoDB with alarm e-mails', { alarmEmail: 'ops@example.com' }],
  ['Azure Tables', { storageBackend: 'azure', azureTablesSecretName: 'receipts/azure' }],
];

describe('cdk-nag AwsSolutions checks', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });
  afterAll(removeTempFolders);

  it.each(CONFIGURATIONS)('pass with no unacknowledged finding (%s)', (_name, context) => {
    // synthApp runs the checks as a validation plugin: a finding fails the synth.
    const { app } = synthApp({ context });
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(
      report.violations.map((v) => `${v.ruleName} at ${v.violatingResources[0]?.constructPath}`),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('acknowledge each finding with a reason of its own', () => {
    const found = acknowledgements(synthApp({ context: { alarmEmail: 'ops@example.com' } }).app);
    expect(found.length).toBeGreaterThan(0);
    for (const { path, id, reason } of found) {
      expect(id, path).toMatch(/^AwsSolutions-[A-Z]+\d+(\[.+\])?$/);
      expect(reason.length, `${id} at ${path}`).toBeGreaterThanOrEqual(40);
    }
    // A reason explains one decision; the same words everywhere would explain none.
    const reasonsByRule = new Map<string, Set<string>>();
    for (const { id, reason } of found) {
      const rule = id.replace(/\[.*$/, '');
      reasonsByRule.set(rule, (reasonsByRule.get(rule) ?? new Set()).add(reason));
    }
    expect(new Set(found.map((a) => a.reason)).size).toBeGreaterThanOrEqual(reasonsByRule.size);
  });

  it.each(CONFIGURATIONS)('acknowledge nothing the checks do not actually raise (%s)', (_name, context) => {
    const acknowledged = acknowledgements(buildReceiptsApp(newApp(context)).storage.node.root);

    vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined);
    const bare = newApp(context);
    buildReceiptsApp(bare);
    expect(acknowledgements(bare)).toEqual([]);
    const raised = new AwsSolutionsChecks()
      .validateScope(bare)
      .violations.flatMap((v) =>
        v.violatingResources.map((r) => ({ id: v.ruleName, path: r.constructPath ?? '' })),
      );

    for (const { path, id } of acknowledged) {
      const matches = raised.filter((r) => r.id === id && (r.path === path || r.path.startsWith(`${path}/`)));
      expect(matches.length, `${id} acknowledged at ${path} but never raised there`).toBeGreaterThan(0);
    }
    // And every finding the checks raise is acknowledged somewhere above it.
    for (const { path, id } of raised) {
      const covered = acknowledged.some(
        (a) => a.id === id && (path === a.path || path.startsWith(`${a.path}/`)),
      );
      expect(covered, `${id} at ${path}`).toBe(true);
    }
  });

  it('run inside the synth: a new finding fails it', () => {
    const app = newApp();
    const { storage } = buildReceiptsApp(app);
    // A bucket that accepts plain HTTP and keeps no access logs.
    new s3.Bucket(storage, 'CarelessBucket', { blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL });
    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  });
});
