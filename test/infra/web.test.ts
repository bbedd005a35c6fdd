import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAppConfig } from '../../web/src/config/env';
import { SPA_FALLBACK_FUNCTION_CODE } from '../../infra/lib/web-stack';
import {
  propertiesOf,
  removeTempFolders,
  synthApp,
  tempFolder,
  TEST_CONTEXT,
  type SynthesisedApp,
} from './synth-app';

afterAll(removeTempFolders);

/** The CloudFront managed policies the /api/* behaviour uses. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

interface Behavior {
  PathPattern?: string;
  TargetOriginId: string;
  ViewerProtocolPolicy: string;
  AllowedMethods: string[];
  CachePolicyId: string;
  OriginRequestPolicyId?: string;
  ResponseHeadersPolicyId: unknown;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}
interface DistributionConfig {
  DefaultRootObject: string;
  DefaultCacheBehavior: Behavior;
  CacheBehaviors: Behavior[];
  CustomErrorResponses?: unknown[];
  Origins: { Id: string; DomainName: unknown; OriginAccessControlId?: unknown; S3OriginConfig?: unknown }[];
}

/** The files the web stack's deployments upload, by asset folder. */
function deployedFiles(synth: SynthesisedApp): Map<string, string[]> {
  const outdir = synth.assembly.directory;
  const manifest = JSON.parse(readFileSync(join(outdir, `${synth.web.stackName}.assets.json`), 'utf8')) as {
    files: Record<string, { source: { path: string; packaging: string } }>;
  };
  const folders = new Map<string, string[]>();
  for (const { source } of Object.values(manifest.files)) {
    const path = join(outdir, source.path);
    if (source.packaging === 'zip' && existsSync(path)) {
      folders.set(path, readdirSync(path, { recursive: true }).map(String));
    }
  }
  return folders;
}

function deployedFile(synth: SynthesisedApp, name: string): string {
  for (const [folder, files] of deployedFiles(synth)) {
    if (files.includes(name)) return readFileSync(join(folder, name), 'utf8');
  }
  throw new Error(`No deployment uploads ${name}`);
}

/** Runs the SPA fallback CloudFront function on a request path. */
function viewerRequest(uri: string): string {
  const handler = new Function(`${SPA_FALLBACK_FUNCTION_CODE}\nreturn handler;`)() as (event: {
    request: { uri: string };
  }) => { uri: string };
  return handler({ request: { uri } }).uri;
}

describe('site without a web build (fresh clone)', () => {
  let synth: SynthesisedApp;
  let config: DistributionConfig;
  beforeAll(() => {
    synth = synthApp();
    config = (
      propertiesOf(synth.templates.web, synth.web.distribution.node.defaultChild as CfnElement) as {
        DistributionConfig: DistributionConfig;
      }
    ).DistributionConfig;
  });

  it('has one distribution serving the SPA from the private bucket through origin access control', () => {
    synth.templates.web.resourceCountIs('AWS::CloudFront::Distribution', 1);
    synth.templates.web.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const origin = config.Origins.find((o) => o.Id === config.DefaultCacheBehavior.TargetOriginId)!;
    expect(JSON.stringify(origin.DomainName)).toContain('RegionalDomainName');
    expect(origin.OriginAccessControlId).toBeDefined();
    expect(origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(config.DefaultRootObject).toBe('index.html');
    synth.templates.web.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: Match.anyValue(),
    });
    synth.templates.web.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Action: 's3:GetObject',
            Principal: { Service: 'cloudfront.amazonaws.com' },
          }),
        ]),
      },
    });
  });

  it('routes /api/* to the HTTP API: uncached, all methods, all viewer headers but Host', () => {
    expect(config.CacheBehaviors).toHaveLength(1);
    const apiBehavior = config.CacheBehaviors[0]!;
    expect(apiBehavior.PathPattern).toBe('/api/*');
    expect(apiBehavior.CachePolicyId).toBe(CACHING_DISABLED);
    expect(apiBehavior.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(apiBehavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'POST', 'DELETE', 'OPTIONS']));
    const origin = config.Origins.find((o) => o.Id === apiBehavior.TargetOriginId)!;
    const domain = JSON.stringify(origin.DomainName);
    expect(domain).toContain('.execute-api.');
    expect(domain).toContain('ReceiptsApi:ExportsOutputRefHttpApi');
    synth.templates.web.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Origins: Match.arrayWith([
          Match.objectLike({
            CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
          }),
        ]),
      }),
    });
  });

  it('redirects plain HTTP to HTTPS on every behaviour', () => {
    for (const behavior of [config.DefaultCacheBehavior, ...config.CacheBehaviors]) {
      expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    }
  });

  it('falls back to index.html for client-side routes on the SPA only, leaving API errors alone', () => {
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      {
        EventType: 'viewer-request',
        FunctionARN: {
          'Fn::GetAtt': [
            synth.web.getLogicalId(synth.web.spaFallback.node.defaultChild as CfnElement),
            'FunctionARN',
          ],
        },
      },
    ]);
    expect(config.CacheBehaviors[0]!.FunctionAssociations).toBeUndefined();
    // Distribution-wide error responses would turn the API's 403 and 404 into index.html.
    expect(config.CustomErrorResponses).toBeUndefined();
    synth.templates.web.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: SPA_FALLBACK_FUNCTION_CODE,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it('serves the app shell for routes and leaves files alone (the CloudFront function, run)', () => {
    expect(viewerRequest('/')).toBe('/index.html');
    expect(viewerRequest('/receipts')).toBe('/index.html');
    expect(viewerRequest('/reports/merchants')).toBe('/index.html');
    expect(viewerRequest('/storage-tester/')).toBe('/index.html');
    expect(viewerRequest('/assets/index-4f1c2a.js')).toBe('/assets/index-4f1c2a.js');
    expect(viewerRequest('/config.json')).toBe('/config.json');
    expect(viewerRequest('/firebase-messaging-sw.js')).toBe('/firebase-messaging-sw.js');
  });

  it('sends a strict Content-Security-Policy that still lets Firebase sign in, plus HSTS, no-sniff and a referrer policy', () => {
    const policy = propertiesOf(
      synth.templates.web,
      synth.web.responseHeadersPolicy.node.defaultChild as CfnElement,
    ) as {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: string; Override: boolean };
          StrictTransportSecurity: { AccessControlMaxAgeSec: number; IncludeSubdomains: boolean };
          ContentTypeOptions: { Override: boolean };
          ReferrerPolicy: { ReferrerPolicy: string };
          FrameOptions: { FrameOption: string };
        };
      };
    };
    const headers = policy.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    const directives = new Map(
      headers.ContentSecurityPolicy.ContentSecurityPolicy.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual([
      "'self'",
      'https://apis.google.com',
      'https://www.gstatic.com',
    ]);
    expect(directives.get('connect-src')).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://securetoken.googleapis.com',
        'https://identitytoolkit.googleapis.com',
        'https://firebaseinstallations.googleapis.com',
        'https://fcmregistrations.googleapis.com',
      ]),
    );
    expect(directives.get('frame-src')).toEqual([`https://${TEST_CONTEXT.firebaseWebConfig.authDomain}`]);
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(directives.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'self'"]);
    expect(directives.get('worker-src')).toEqual(["'self'"]);
    // No directive lets arbitrary scripts run.
    expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
    expect(directives.get('script-src')).not.toContain("'unsafe-eval'");
    expect(headers.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31_536_000);
    expect(headers.ContentTypeOptions.Override).toBe(true);
    expect(headers.ReferrerPolicy.ReferrerPolicy).toBe('strict-origin-when-cross-origin');
    expect(headers.FrameOptions.FrameOption).toBe('DENY');
    // The same headers go with the API's answers.
    expect(config.CacheBehaviors[0]!.ResponseHeadersPolicyId).toEqual(
      config.DefaultCacheBehavior.ResponseHeadersPolicyId,
    );
  });

  it("deploys /config.json with the project's public Firebase values, in the shape the SPA reads", () => {
    const configJson = JSON.parse(deployedFile(synth, 'config.json')) as unknown;
    const parsed = parseAppConfig(configJson);
    const { vapidKey, ...firebase } = TEST_CONTEXT.firebaseWebConfig;
    expect(parsed.firebase).toEqual(firebase);
    expect(parsed.vapidKey).toBe(vapidKey);
    expect(parsed.authEmulatorUrl).toBeNull();
    expect(parsed.adminEmail).toBe(TEST_CONTEXT.adminEmails[0]);
    expect(JSON.stringify(configJson)).not.toMatch(/secret|private_key/i);
  });

  it('deploys a placeholder page that says how to build the SPA, and warns at synth', () => {
    expect(synth.web.deploysBuiltSite).toBe(false);
    expect(deployedFile(synth, 'index.html')).toContain('npm run build:web');
    const warnings = synth.assembly
      .getStackByName(synth.web.stackName)
      .messages.filter((m) => m.level === 'warning')
      .map((m) => String(m.entry.data));
    expect(warnings.some((w) => w.includes('npm run build:web'))).toBe(true);
    synth.templates.web.resourceCountIs('Custom::CDKBucketDeployment', 1);
    synth.templates.web.hasResourceProperties('Custom::CDKBucketDeployment', {
      DistributionPaths: ['/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
  });

  it('outputs the site URL', () => {
    synth.templates.web.hasOutput('SiteUrl', {
      Value: {
        'Fn::Join': [
          '',
          [
            'https://',
            {
              'Fn::GetAtt': [
                synth.web.getLogicalId(synth.web.distribution.node.defaultChild as CfnElement),
                'DomainName',
              ],
            },
          ],
        ],
      },
    });
  });
});

describe('site with a web build', () => {
  let synth: SynthesisedApp;
  beforeAll(() => {
    const dist = tempFolder('receipts-dist-');
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><title>Receipt Tracker</title><script src="/assets/index-abc123.js"></script>',
    );
    writeFileSync(join(dist, 'firebase-messaging-sw.js'), 'self.addEventListener("push", () => {});');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets/index-abc123.js'), 'console.log("app")');
    // A build made with source maps (say, by hand for debugging): the maps must not ship.
    writeFileSync(join(dist, 'assets/index-abc123.js.map'), '{"version":3,"sources":["src/main.tsx"]}');
    writeFileSync(join(dist, 'firebase-messaging-sw.js.map'), '{"version":3}');
    synth = synthApp({ webDist: dist });
  });

  it('uploads no source maps, and the production build writes none', async () => {
    const files = [...deployedFiles(synth).values()].flat();
    expect(files).toContain('index-abc123.js');
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);

    const nodeEnv = process.env.NODE_ENV;
    try {
      const viteConfig = (await import('../../web/vite.config')).default as unknown as (env: {
        command: string;
        mode: string;
      }) => { build?: { sourcemap?: unknown } };
      expect(viteConfig({ command: 'build', mode: 'production' }).build?.sourcemap).toBe(false);
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  });

  it('deploys the built SPA, hashed assets cached for a year and everything else revalidated', () => {
    expect(synth.web.deploysBuiltSite).toBe(true);
    const t = synth.templates.web;
    t.resourceCountIs('Custom::CDKBucketDeployment', 2);
    t.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketKeyPrefix: 'assets/',
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    t.hasResourceProperties('Custom::CDKBucketDeployment', {
      Exclude: ['assets/*'],
      DistributionPaths: ['/*'],
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
    expect(deployedFile(synth, 'index.html')).toContain('/assets/index-abc123.js');
    expect(deployedFile(synth, 'firebase-messaging-sw.js')).toContain('push');
    expect(deployedFile(synth, 'config.json')).toContain(TEST_CONTEXT.firebaseWebConfig.apiKey);
    expect(deployedFile(synth, 'index-abc123.js')).toContain('app');
  });

  it('publishes the new index.html only after the chunks it names', () => {
    const site = Object.values(synth.templates.web.findResources('Custom::CDKBucketDeployment')).find(
      (r) => (r.Properties as { Exclude?: string[] }).Exclude !== undefined,
    );
    expect(JSON.stringify(site?.DependsOn)).toContain('DeployAssets');
  });

  it('does not warn about a missing build', () => {
    const warnings = synth.assembly
      .getStackByName(synth.web.stackName)
      .messages.map((m) => String(m.entry.data));
    expect(warnings.some((w) => w.includes('npm run build:web'))).toBe(false);
  });
});
