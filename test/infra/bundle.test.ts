/**
 * One synth with real esbuild bundling of every function, as `cdk deploy` uploads them: each bundle
 * must load on Node and export its handler, keep out what the Lambda runtime provides or the
 * deployment never uses, load no AWS SDK client before its first use, and the open /api/log function
 * must answer with the environment the template gives it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { ORIGIN_VERIFY_HEADER, ROUTES, type RouteName } from '@receipts/core/contract/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type ReceiptFunction } from '../../infra/lib/receipt-function';
import { appFunctions } from '../../infra/lib/bundling';
import { propertiesOf, synthApp, type SynthesisedApp } from './synth-app';

const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

/** The bundle folder of a function: the asset its code was staged from. */
function bundleOf(synth: SynthesisedApp, fn: ReceiptFunction): string {
  const code = fn.function.node.findChild('Code') as Asset;
  return join(synth.assembly.directory, code.assetPath);
}

/** The code files of a bundle: index.mjs and the chunks beside it. */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.mjs'))
    .map((file) => join(dir, file));
}

/** The files a bundle loads when it starts: index.mjs and, transitively, the chunks it imports statically. */
function startFiles(dir: string): string[] {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\b(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g))
      visit(join(dirname(file), m[1]!));
  };
  visit(join(dir, 'index.mjs'));
  return [...loaded];
}

/** The source files whose code is in the given bundle files, from their source maps. */
function sourcesOf(files: string[]): string[] {
  return files.flatMap(
    (file) => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources,
  );
}

const codeOf = (files: string[]) => files.map((file) => readFileSync(file, 'utf8')).join('\n');

// Minified code holds `from"` inside strings too; a module name has none of ",: " in it.
const MODULE_NAME = '"((?:@[\\w.-]+\\/)?[\\w.-]+(?:\\/[\\w./-]+)?)"';

/** Modules a bundle still imports by name (everything else is inside it), loaded with it or on demand. */
function externalImports(code: string): { loaded: Set<string>; onDemand: Set<string> } {
  const find = (pattern: RegExp) =>
    new Set([...code.matchAll(pattern)].map((m) => m[1]!).filter((name) => !name.startsWith('.')));
  return {
    // `import … from"x"` and `require("x")` run when the bundle loads.
    loaded: new Set([
      ...find(new RegExp(`\\bfrom\\s*${MODULE_NAME}`, 'g')),
      ...find(new RegExp(`\\brequire\\s*\\(\\s*${MODULE_NAME}`, 'g')),
    ]),
    onDemand: find(new RegExp(`\\bimport\\s*\\(\\s*${MODULE_NAME}`, 'g')),
  };
}

const isBuiltin = (name: string) => name.startsWith('node:') || builtinModules.includes(name.split('/')[0]!);

describe('function bundles (real esbuild bundling)', () => {
  let synth: SynthesisedApp;
  let outdir: string;
  const functions = () => [
    ...ROUTE_NAMES.map((name) => ({ name: name as string, fn: synth.api.functions[name] })),
    { name: 'analyze', fn: synth.pipeline.analyzeFunction },
  ];

  beforeAll(() => {
    // Inside the repository, so that the bundles resolve the AWS SDK from node_modules as the Lambda
    // runtime would provide it.
    const parent = join(REPO_ROOT, 'cdk.out');
    mkdirSync(parent, { recursive: true });
    outdir = mkdtempSync(join(parent, 'bundle-test-'));
    synth = synthApp({ outdir, bundlingStacks: ['ReceiptsApi', 'ReceiptsPipeline'] });
  });

  afterAll(() => {
    if (outdir) rmSync(outdir, { recursive: true, force: true });
  });

  it('writes an ES module with its source map for each function (one per /api route and the worker)', () => {
    const bundles = new Set<string>();
    for (const { name, fn } of functions()) {
      const dir = bundleOf(synth, fn);
      bundles.add(dir);
      expect(existsSync(join(dir, 'index.mjs')), name).toBe(true);
      const map = JSON.parse(readFileSync(join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[] };
      expect(
        map.sources.some((s) => s.includes(`lambdas/src/handlers/`)),
        name,
      ).toBe(true);
    }
    expect(bundles.size).toBe(ROUTE_NAMES.length + 1);
  });

  it('loads nothing but Node built-ins and the runtime-provided AWS SDK; what it leaves out, it imports on demand only', () => {
    const bundling = new Map(appFunctions('dynamodb').map((fn) => [fn.name, fn.bundling]));
    for (const { name, fn } of functions()) {
      const code = codeOf(codeFiles(bundleOf(synth, fn)));
      const { loaded, onDemand } = externalImports(code);
      const outside = (names: Set<string>) =>
        [...names].filter((m) => !isBuiltin(m) && !m.startsWith('@aws-sdk/'));
      expect(outside(loaded), name).toEqual([]);
      const leftOut = bundling.get(name)!.externalModules;
      for (const module of outside(onDemand)) expect(leftOut, `${name}: ${module}`).toContain(module);
      expect(code).not.toContain('tesseract.js-core');
    }
  });

  it('starts without loading any AWS SDK client: each is imported with the adapter that uses it, on first use', () => {
    for (const { name, fn } of functions()) {
      const dir = bundleOf(synth, fn);
      const { loaded } = externalImports(codeOf(startFiles(dir)));
      expect(
        [...loaded].filter((m) => !isBuiltin(m)),
        name,
      ).toEqual([]);
      // pdf-lib is parsed only when a PDF arrives, firebase-admin on the first push notification.
      const atStart = sourcesOf(startFiles(dir));
      expect(
        atStart.filter((s) => /node_modules\/(pdf-lib|firebase-admin)\//.test(s)),
        name,
      ).toEqual([]);
    }
    expect(sourcesOf(codeFiles(bundleOf(synth, synth.api.functions.upload)))).toEqual(
      expect.arrayContaining([expect.stringContaining('node_modules/pdf-lib/')]),
    );
    // A route that reads the table only loads the DynamoDB client, on its first query.
    const listMerchants = codeOf(codeFiles(bundleOf(synth, synth.api.functions.listMerchants)));
    expect(externalImports(listMerchants).loaded).not.toContain('@aws-sdk/client-sqs');
  });

  it("bundles only the adapters of each function's route: firebase-admin only in the scan worker (push notifications)", () => {
    const firebaseAdmin = ['analyze'];
    for (const { name, fn } of functions()) {
      const all = sourcesOf(codeFiles(bundleOf(synth, fn)));
      const has = (part: string) => all.some((source) => source.includes(part));
      expect(has('node_modules/firebase-admin/'), name).toBe(firebaseAdmin.includes(name));
      expect(has('node_modules/google-auth-library/'), name).toBe(firebaseAdmin.includes(name));
      // Azure Tables only on an Azure deployment; this one is DynamoDB.
      expect(has('node_modules/@azure/'), name).toBe(false);
      expect(has('packages/blob-local/'), name).toBe(false);
    }
    const sources = (name: RouteName) =>
      sourcesOf(codeFiles(bundleOf(synth, synth.api.functions[name]))).join('\n');
    // The open log route touches no data: no store, no S3, no token verification.
    expect(sources('log')).not.toMatch(/packages\/(store-dynamo|blob-s3|queue-sqs|identity-firebase)\//);
    // A read route: the store and S3 (the report cache), no queue.
    expect(sources('getAppData')).toMatch(/packages\/store-dynamo\//);
    expect(sources('getAppData')).not.toMatch(/packages\/queue-sqs\//);
    expect(sources('upload')).toMatch(/packages\/queue-sqs\//);
  });

  it('loads every bundle on Node and finds its handler', () => {
    const script = `
      const files = JSON.parse(process.argv[1]);
      const kinds = [];
      for (const file of files) kinds.push(typeof (await import(file)).handler);
      console.log(JSON.stringify(kinds));
    `;
    const files = functions().map(({ fn }) => join(bundleOf(synth, fn), 'index.mjs'));
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(files)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/Error/);
    expect(JSON.parse(run.stdout) as string[]).toEqual(files.map(() => 'function'));
  });

  it('answers POST /api/log from the bundle with the environment the template sets, without any secret', () => {
    const fn = synth.api.functions.log;
    const variables = (
      propertiesOf(synth.templates.api, fn.function.node.defaultChild as CfnElement) as {
        Environment: { Variables: Record<string, unknown> };
      }
    ).Environment.Variables;
    // CloudFormation fills in the resource names; any value of the right form does here.
    const deployed: Record<string, string> = {
      DYNAMODB_TABLE: 'receipts-table',
      S3_BUCKET: 'receipts-images',
      SCAN_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/ScanJobs',
      // CloudFormation resolves it from Secrets Manager at deploy; CloudFront sends it as a header.
      ORIGIN_VERIFY_SECRET: 'origin-secret-value',
    };
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      AWS_REGION: 'eu-west-1',
      AWS_LAMBDA_FUNCTION_NAME: 'ReceiptsApi-LogFunction',
      // Credentials are never used by this route; the SDK clients only need some at construction.
      AWS_ACCESS_KEY_ID: 'unused',
      AWS_SECRET_ACCESS_KEY: 'unused',
    };
    for (const [key, value] of Object.entries(variables)) {
      env[key] = typeof value === 'string' ? value : (deployed[key] ?? '');
      expect(env[key], key).not.toBe('');
    }
    const event = {
      version: '2.0',
      routeKey: 'POST /api/log',
      rawPath: '/api/log',
      rawQueryString: '',
      headers: { 'content-type': 'application/json', [ORIGIN_VERIFY_HEADER]: 'origin-secret-value' },
      requestContext: {
        requestId: 'bundle-test',
        http: { method: 'POST', path: '/api/log', sourceIp: '127.0.0.1' },
      },
      body: JSON.stringify({ event: 'bundle-test', properties: { from: 'infra' } }),
      isBase64Encoded: false,
    };
    // What the Lambda runtime passes beside the event; the logs carry its request id.
    const context = {
      awsRequestId: 'lambda-request-1',
      functionName: 'ReceiptsApi-LogFunction',
      functionVersion: '$LATEST',
      invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:ReceiptsApi-LogFunction',
      memoryLimitInMB: '512',
    };
    // The answer goes on a line of its own after the logs, which the function writes to stdout too.
    const script = `
      const { handler } = await import(process.argv[1]);
      const answer = await handler(JSON.parse(process.argv[2]), JSON.parse(process.argv[3]));
      process.stdout.write('\\n' + JSON.stringify(answer));
    `;
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        script,
        join(bundleOf(synth, fn), 'index.mjs'),
        JSON.stringify(event),
        JSON.stringify(context),
      ],
      { encoding: 'utf8', env: { ...env, AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' }, timeout: 60_000 },
    );
    const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
    const answer = JSON.parse(lines.at(-1)!) as { statusCode: number; body: string };
    expect(answer.statusCode, run.stderr).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ logged: true });
    // The function logs the event as one JSON line (Powertools), which CloudWatch keeps as structured
    // data, tagged with the invocation.
    const logLine = lines.slice(0, -1).find((line) => line.includes('"event":"bundle-test"'));
    expect(JSON.parse(logLine!)).toMatchObject({
      level: 'INFO',
      event: 'bundle-test',
      function_request_id: 'lambda-request-1',
      cold_start: true,
      service: 'receipts',
    });
  });
});
