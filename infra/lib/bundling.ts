/**
 * How every function is bundled: the esbuild build the CDK construct runs for each function's code
 * (infra/lib/receipt-function.ts), kept here without any CDK import so that `npm run bench:cold`
 * builds the very same bundles.
 */
import { statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type Metafile } from 'esbuild';
import {
  ANALYZE_HANDLER,
  DEAD_LETTER_HANDLER,
  SWEEP_HANDLER,
  deployedRoutes,
  type DeployedRoute,
} from './routes';

/** The repository root: the bundles resolve workspace packages from here. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Where the handlers live. */
export const HANDLERS_DIR = join(REPO_ROOT, 'lambdas/src/handlers');

/** The AWS SDK v3 ships with the Node.js 22 runtime, so bundles leave it out. */
export const RUNTIME_PROVIDED_MODULES: readonly string[] = ['@aws-sdk/*'];

/**
 * esbuild emits ESM; CommonJS dependencies bundled into it still call `require` for Node built-ins,
 * which ESM does not define.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __receiptsCreateRequire } from 'node:module'; const require = __receiptsCreateRequire(import.meta.url);";

/** The settings every function's bundle shares. */
export const BUNDLE_SETTINGS = {
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  banner: ESM_REQUIRE_BANNER,
} as const;

/** The file of a bundle that the Lambda runtime loads (handler `index.handler`). */
export const BUNDLE_ENTRY = 'index.mjs';

/** What one function's build wrote. */
export interface BuiltBundle {
  /** Bytes of the code loaded when the function starts: index.mjs and the chunks it imports statically. */
  readonly startBytes: number;
  /** Bytes of all the code, the chunks loaded on first use (`import()`) included; no source maps. */
  readonly totalBytes: number;
  /** The code files written, relative to the output folder. */
  readonly files: readonly string[];
}

/**
 * Builds one function's code into `outdir` (index.mjs, its chunks, their source maps).
 *
 * The build splits code: what the handler imports with `import()` (the adapters the composition root
 * loads on first use, pdf-lib when a PDF arrives, firebase-admin on the first push) goes into chunks
 * of its own, loaded when first imported. A single-file ESM bundle would instead parse all of it at
 * start, and hoist to its top the imports of every module it leaves out, the AWS SDK clients of every
 * adapter it holds among them, so that starting a function loaded S3, SQS and DynamoDB alike.
 * @param handler - the handler file under lambdas/src/handlers, without `.ts`
 * @param externalModules - modules left out of the bundle (see FunctionBundling)
 * @param outdir - an empty folder
 */
export function buildFunction(
  handler: string,
  externalModules: readonly string[],
  outdir: string,
): BuiltBundle {
  const result = buildSync({
    entryPoints: { index: join(HANDLERS_DIR, `${handler}.ts`) },
    bundle: true,
    splitting: true,
    platform: 'node',
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    format: BUNDLE_SETTINGS.format,
    target: BUNDLE_SETTINGS.target,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    minify: BUNDLE_SETTINGS.minify,
    sourcemap: BUNDLE_SETTINGS.sourceMap,
    sourcesContent: BUNDLE_SETTINGS.sourcesContent,
    banner: { js: BUNDLE_SETTINGS.banner },
    external: [...externalModules],
    tsconfig: join(REPO_ROOT, 'tsconfig.json'),
    metafile: true,
    // The metafile's paths are relative to this folder.
    absWorkingDir: REPO_ROOT,
    logLevel: 'error',
  });
  const outputs = result.metafile.outputs;
  const code = Object.keys(outputs).filter((file) => file.endsWith('.mjs'));
  const bytes = (file: string) => statSync(resolve(REPO_ROOT, file)).size;
  const entry = code.find((file) => file.endsWith(`/${BUNDLE_ENTRY}`) || file === BUNDLE_ENTRY);
  if (!entry) throw new Error(`The build of ${handler} wrote no ${BUNDLE_ENTRY}.`);
  return {
    startBytes: [...loadedAtStart(outputs, entry)].reduce((sum, file) => sum + bytes(file), 0),
    totalBytes: code.reduce((sum, file) => sum + bytes(file), 0),
    files: code.map((file) => relative(outdir, resolve(REPO_ROOT, file))),
  };
}

/** The output files a module loads with it: itself and, transitively, its static imports. */
function loadedAtStart(outputs: Metafile['outputs'], entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file) || !outputs[file]) return;
    loaded.add(file);
    for (const imported of outputs[file].imports) {
      if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
    }
  };
  visit(entry);
  return loaded;
}

/** What one function's bundle leaves out. */
export interface FunctionBundling {
  /** Modules not bundled: provided by the runtime, or never loaded by this function. */
  readonly externalModules: readonly string[];
}

/**
 * The bundling of one function.
 * @param unusedModules - modules the handler only imports in modes this deployment never uses
 */
export function functionBundling(unusedModules: readonly string[] = []): FunctionBundling {
  return { externalModules: [...new Set([...RUNTIME_PROVIDED_MODULES, ...unusedModules])] };
}

/**
 * Modules only the local OCR analyzer uses. The composition root imports them when ANALYZER=ocr,
 * which a deployment never sets; bundling them would add native code that cannot run on Lambda anyway.
 */
export const OCR_ONLY_MODULES = ['@receipts/analyzer-ocr', 'tesseract.js', 'sharp', '@tesseract.js-data/*'];

/**
 * The adapters the composition root (lambdas/src/composition.ts) imports lazily, on the first call of
 * their port, by the module it imports. A function's bundle leaves out those it never loads; since
 * they are imported with `import()`, a bundle without one loads and runs, and only a call of that
 * port would fail, with an error naming the module.
 */
export const ADAPTER_MODULES = {
  /** The table store of each backend. */
  dynamodb: '@receipts/store-dynamo',
  azure: '@receipts/store-azure',
  /** Images, analysis JSON, report cache and data exports in S3. */
  s3: '@receipts/blob-s3',
  /** The local server's blob store (never deployed). */
  localBlobs: '@receipts/blob-local',
  /** Sends scan jobs. */
  sqs: '@receipts/queue-sqs',
  /** Verifies ID tokens and deletes sign-in accounts (jose and Firebase Auth's REST API). */
  identity: '@receipts/identity-firebase',
  /** firebase-admin messaging: push notifications after a scan. */
  fcm: '@receipts/notifier-fcm',
  /** The brand dictionary. */
  brands: '@receipts/enricher-brands',
  textract: '@receipts/analyzer-textract',
} as const;
export type Adapter = keyof typeof ADAPTER_MODULES;

/**
 * The adapters a route's function loads, from what the route may touch (the same table its
 * permissions come from, so that a function is built with what it is allowed to use).
 */
export function routeAdapters(route: DeployedRoute, storageBackend: StorageBackend): Adapter[] {
  const adapters: Adapter[] = [];
  if (route.table !== 'none') adapters.push(storageBackend);
  if (route.images.length > 0 || route.appDataCache || route.dataExports) adapters.push('s3');
  if (route.sendsScanJobs) adapters.push('sqs');
  if (route.auth) adapters.push('identity');
  // The brand dataset of the item form.
  if (route.name === 'listBrands') adapters.push('brands');
  return adapters;
}

/** The adapters of the functions that are not routes. */
const PIPELINE_ADAPTERS = (storageBackend: StorageBackend): Record<string, Adapter[]> => ({
  // Reads the image, writes the results and the report cache, queues retries, pushes a notification.
  [ANALYZE_HANDLER]: [storageBackend, 's3', 'sqs', 'textract', 'brands', 'fcm'],
  [SWEEP_HANDLER]: [storageBackend, 'sqs'],
  // Reads the dead-lettered job (queue-sqs parses it) and marks its scan failed.
  [DEAD_LETTER_HANDLER]: [storageBackend, 'sqs'],
});

/** A bundle with the given adapters and none of the others (nor OCR). */
function bundlingWith(adapters: readonly Adapter[]): FunctionBundling {
  const unused = (Object.keys(ADAPTER_MODULES) as Adapter[])
    .filter((adapter) => !adapters.includes(adapter))
    .map((adapter) => ADAPTER_MODULES[adapter]);
  return functionBundling([...unused, ...OCR_ONLY_MODULES]);
}

export type StorageBackend = 'dynamodb' | 'azure';

/** One function of the app and how it is bundled. */
export interface AppFunction {
  /** The route name, or the handler's name for the queue and schedule functions. */
  readonly name: string;
  /** The handler file under lambdas/src/handlers, without `.ts`. */
  readonly handler: string;
  /** The adapters it loads. */
  readonly adapters: readonly Adapter[];
  readonly bundling: FunctionBundling;
}

/**
 * Every function of the deployment with its bundling, as the API and pipeline stacks build them.
 * @param storageBackend - the deployment's table store
 */
export function appFunctions(storageBackend: StorageBackend): AppFunction[] {
  const pipeline = PIPELINE_ADAPTERS(storageBackend);
  return [
    ...deployedRoutes().map((route) => {
      const adapters = routeAdapters(route, storageBackend);
      return { name: route.name, handler: route.handler, adapters, bundling: bundlingWith(adapters) };
    }),
    ...[
      ['analyze', ANALYZE_HANDLER],
      ['sweep', SWEEP_HANDLER],
      ['deadLetter', DEAD_LETTER_HANDLER],
    ].map(([name, handler]) => {
      const adapters = pipeline[handler!]!;
      return { name: name!, handler: handler!, adapters, bundling: bundlingWith(adapters) };
    }),
  ];
}

/**
 * The bundling of the function of a handler.
 * @throws Error for a handler that is not one of the app's functions
 */
export function bundlingOf(handler: string, storageBackend: StorageBackend): FunctionBundling {
  const fn = appFunctions(storageBackend).find((f) => f.handler === handler);
  if (!fn) throw new Error(`The handler ${handler} is not one of the app's functions (see appFunctions).`);
  return fn.bundling;
}
