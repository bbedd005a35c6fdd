import type { CfnElement } from 'aws-cdk-lib';
import type { RouteName } from '@receipts/core/contract/routes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  WAF_BODY_SIZE_LABEL,
  WAF_MANAGED_RULE_GROUPS,
  WAF_UPLOADS_PER_IP,
  WAF_UPLOADS_PER_USER,
} from '../../infra/lib/edge-stack';
import { QUEUE_KEEPER_TIMEOUT } from '../../infra/lib/pipeline-stack';
import {
  actionsOf,
  propertiesOf,
  removeTempFolders,
  statementsAllowing,
  synthApp,
  type SynthesisedApp,
} from './synth-app';

/**
 * What keeps one account from running up the bill or slowing the API for everyone, in the templates:
 * the WAF's rules per user and per IP and its managed rule groups, the execute-api endpoint, the
 * dead-letter queue's visibility timeout, and each function's table permissions.
 */
let synth: SynthesisedApp;
beforeAll(() => {
  synth = synthApp();
});
afterAll(removeTempFolders);

interface Rule {
  Name: string;
  Priority: number;
  Action?: unknown;
  OverrideAction?: unknown;
  Statement: {
    RateBasedStatement?: {
      Limit: number;
      AggregateKeyType: string;
      CustomKeys?: unknown[];
      ScopeDownStatement?: unknown;
    };
    ManagedRuleGroupStatement?: { VendorName: string; Name: string; RuleActionOverrides?: unknown[] };
    AndStatement?: unknown;
  };
}
const rulesOf = (s: SynthesisedApp) => {
  const acls = Object.values(s.edgeTemplate!.findResources('AWS::WAFv2::WebACL'));
  expect(acls).toHaveLength(1);
  const rules = (acls[0]!.Properties as { Rules: Rule[] }).Rules;
  return Object.fromEntries(rules.map((r) => [r.Name, r]));
};
const AUTHORIZATION_KEY = [
  { Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
];

describe('WAF in front of the site', () => {
  it('limits uploads and /api requests per user, keyed on the Authorization header, as well as per IP', () => {
    const rules = rulesOf(synth);
    expect(rules.UploadsPerUser!.Statement.RateBasedStatement).toMatchObject({
      Limit: WAF_UPLOADS_PER_USER,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: AUTHORIZATION_KEY,
    });
    expect(JSON.stringify(rules.UploadsPerUser!.Statement.RateBasedStatement!.ScopeDownStatement)).toContain(
      '"SearchString":"/api/upload"',
    );
    expect(rules.ApiRequestsPerUser!.Statement.RateBasedStatement).toMatchObject({
      Limit: 600,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: AUTHORIZATION_KEY,
    });
    expect(
      JSON.stringify(rules.ApiRequestsPerUser!.Statement.RateBasedStatement!.ScopeDownStatement),
    ).toContain('"SearchString":"/api/"');
    expect(rules.UploadsPerIp!.Statement.RateBasedStatement).toMatchObject({
      Limit: WAF_UPLOADS_PER_IP,
      AggregateKeyType: 'IP',
    });
    expect(rules.RequestsPerIp!.Statement.RateBasedStatement).toMatchObject({ AggregateKeyType: 'IP' });
    for (const name of ['UploadsPerUser', 'ApiRequestsPerUser', 'UploadsPerIp', 'RequestsPerIp'])
      expect(rules[name]!.Action, name).toEqual({ Block: {} });

    const tuned = rulesOf(synthApp({ context: { wafRequestsPerUser: '120' } }));
    expect(tuned.ApiRequestsPerUser!.Statement.RateBasedStatement!.Limit).toBe(120);
  });

  it('applies the AWS managed rule groups: IP reputation, known bad inputs and the common rule set', () => {
    const rules = rulesOf(synth);
    for (const name of WAF_MANAGED_RULE_GROUPS) {
      expect(rules[name]?.Statement.ManagedRuleGroupStatement, name).toMatchObject({
        VendorName: 'AWS',
        Name: name,
      });
      // The group's own actions apply (block), not overridden to count.
      expect(rules[name]!.OverrideAction, name).toEqual({ None: {} });
    }
    expect(WAF_MANAGED_RULE_GROUPS).toEqual([
      'AWSManagedRulesAmazonIpReputationList',
      'AWSManagedRulesKnownBadInputsRuleSet',
      'AWSManagedRulesCommonRuleSet',
    ]);
    // The rate rules count first: a flood is blocked before the groups inspect it.
    const priority = (name: string) => rules[name]!.Priority;
    expect(priority('RequestsPerIp')).toBeLessThan(priority('AWSManagedRulesAmazonIpReputationList'));
  });

  it("blocks bodies over the common rule set's 8 KB except on /api/upload, whose JSON carries the image", () => {
    const rules = rulesOf(synth);
    expect(
      rules.AWSManagedRulesCommonRuleSet!.Statement.ManagedRuleGroupStatement!.RuleActionOverrides,
    ).toEqual([{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
    const own = rules.BodySizeExceptUploads!;
    expect(own.Action).toEqual({ Block: {} });
    expect(own.Priority).toBeGreaterThan(rules.AWSManagedRulesCommonRuleSet!.Priority);
    expect(own.Statement.AndStatement).toEqual({
      Statements: [
        { LabelMatchStatement: { Scope: 'LABEL', Key: WAF_BODY_SIZE_LABEL } },
        {
          NotStatement: {
            Statement: {
              ByteMatchStatement: {
                FieldToMatch: { UriPath: {} },
                PositionalConstraint: 'STARTS_WITH',
                SearchString: '/api/upload',
                TextTransformations: [{ Priority: 0, Type: 'NONE' }],
              },
            },
          },
        },
      ],
    });
  });
});

describe('the execute-api endpoint', () => {
  const api = (s: SynthesisedApp) =>
    propertiesOf(s.templates.api, s.api.httpApi.node.defaultChild as CfnElement) as {
      DisableExecuteApiEndpoint?: boolean;
    };
  const apiOrigin = (s: SynthesisedApp) => {
    const config = propertiesOf(s.templates.web, s.web.distribution.node.defaultChild as CfnElement)
      .DistributionConfig as { Origins: { DomainName: unknown; CustomOriginConfig?: unknown }[] };
    return config.Origins.filter((o) => o.CustomOriginConfig).map((o) => o.DomainName);
  };

  it('is disabled when the API has a domain of its own, which CloudFront then reaches it at', () => {
    const domain = synthApp({
      context: {
        apiDomainName: 'api.receipts.example.com',
        apiCertificateArn:
          'arn:aws:acm:eu-west-1:123456789012:certificate/0a1b2c3d-aaaa-bbbb-cccc-123456789012',
      },
    });
    expect(api(domain).DisableExecuteApiEndpoint).toBe(true);
    domain.templates.api.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api.receipts.example.com',
    });
    domain.templates.api.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
    domain.templates.api.hasOutput('ApiDomainTarget', {});
    expect(apiOrigin(domain)).toEqual(['api.receipts.example.com']);
  });

  it('stays on without one (CloudFront has no other way to the API), and the setting needs both values', () => {
    expect(api(synth).DisableExecuteApiEndpoint ?? false).toBe(false);
    expect(() => synthApp({ context: { apiDomainName: 'api.receipts.example.com' } })).toThrow(
      /apiCertificateArn.*set both, or neither/s,
    );
  });
});

describe('the dead-letter queue', () => {
  it("hides a message at least six times as long as its consumer's timeout", () => {
    const dlq = propertiesOf(
      synth.templates.pipeline,
      synth.pipeline.deadLetterQueue.node.defaultChild as CfnElement,
    ) as { VisibilityTimeout?: number };
    const consumer = propertiesOf(
      synth.templates.pipeline,
      synth.pipeline.deadLetterFunction.function.node.defaultChild as CfnElement,
    ) as { Timeout: number };
    expect(consumer.Timeout).toBe(QUEUE_KEEPER_TIMEOUT.toSeconds());
    expect(dlq.VisibilityTimeout).toBeGreaterThanOrEqual(6 * consumer.Timeout);
  });

  it('leaves cdk with no warning to give', () => {
    // Template validation and deprecations are printed, not kept in the assembly.
    const printed: string[] = [];
    const spies = [
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true)),
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true)),
      vi.spyOn(console, 'warn').mockImplementation((...args) => void printed.push(args.join(' '))),
      vi.spyOn(console, 'error').mockImplementation((...args) => void printed.push(args.join(' '))),
      vi.spyOn(console, 'log').mockImplementation((...args) => void printed.push(args.join(' '))),
    ];
    try {
      synthApp();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(printed.filter((line) => /warning/i.test(line))).toEqual([]);
    const warnings = synth.assembly.stacks.flatMap((stack) =>
      stack.messages.filter((m) => m.level === 'warning').map((m) => `${m.id}: ${String(m.entry.data)}`),
    );
    // The app's own reminders remain (the SPA's build, which the tests synthesise without, and the
    // missing budget e-mail of this context); cdk's own validation has nothing to say.
    const own = (w: string) => w.includes('npm run build:web') || w.includes('[ack: receipts:');
    expect(warnings.filter((w) => !own(w))).toEqual([]);
  });
});

/**
 * What each function may do with the table, written out here rather than read from the routes' own
 * table: a route that gains a write, or a read-only route that is given one, fails this test until
 * both are changed on purpose.
 */
/**
 * What each function may do to the table: read it, write it, or (the report routes) read it and
 * write only the items the settle step finishes for the caller (stacks.test.ts checks the condition).
 */
const TABLE_ACCESS: Record<RouteName, 'none' | 'read' | 'settle' | 'write'> = {
  login: 'write',
  registerFCMToken: 'write',
  unregisterFCMToken: 'write',
  listQueue: 'read',
  getImage: 'read',
  getAppData: 'settle',
  report: 'settle',
  exportCsv: 'settle',
  receiptDetail: 'settle',
  merchantDetail: 'settle',
  itemDetail: 'settle',
  listMerchants: 'settle',
  dashboard: 'settle',
  deleteReceiptData: 'write',
  log: 'none',
  upload: 'write',
  retryScan: 'write',
  removeScan: 'write',
  updateReceipt: 'write',
  saveReceipt: 'write',
  saveItem: 'write',
  deleteItem: 'write',
  markReviewed: 'write',
  keepBothReceipts: 'write',
  moveReceipt: 'write',
  updateMerchant: 'write',
  mergeMerchants: 'write',
  reanalyseReceipt: 'write',
  listBrands: 'none',
  getAnalysis: 'none',
  storageListTables: 'read',
  storageListRecords: 'read',
  storageCreateRecord: 'write',
  storageDeleteRecord: 'write',
  downloadMyData: 'read',
  deleteAccount: 'write',
  listCorrectionRules: 'read',
  deleteCorrectionRule: 'write',
};
const WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

describe('table permissions per function', () => {
  it.each(Object.entries(TABLE_ACCESS) as [RouteName, 'none' | 'read' | 'settle' | 'write'][])(
    '%s: %s',
    (name, access) => {
      const fn = synth.api.functions[name];
      expect(fn, `no function for ${name}`).toBeDefined();
      const table = actionsOf(synth.templates.api, fn.role).filter((a) => a.startsWith('dynamodb:'));
      if (access === 'none') expect(table).toEqual([]);
      else expect(table).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      if (access === 'write') expect(table).toEqual(expect.arrayContaining(WRITES));
      else if (access === 'settle')
        for (const write of WRITES)
          for (const statement of statementsAllowing(synth.templates.api, fn.role, write))
            expect(JSON.stringify(statement.Condition), `${name} ${write}`).toContain('dynamodb:LeadingKeys');
      else for (const write of WRITES) expect(table).not.toContain(write);
    },
  );

  it('covers every route', () => {
    expect(Object.keys(synth.api.functions).sort()).toEqual(Object.keys(TABLE_ACCESS).sort());
  });
});
