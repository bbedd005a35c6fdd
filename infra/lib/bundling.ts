/**
 * How every function is bundled: the esbuild settings the CDK construct passes to NodejsFunction,
 * kept here without any CDK import so that `npm run bench:cold` builds the very same bundles.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANALYZE_HANDLER, DEAD_LETTER_HANDLER, SWEEP_HANDLER, deployedRoutes } from './routes';

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

/** The settings every function's bundle shares (NodejsFunction's names). */
export const BUNDLE_SETTINGS = {
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  banner: ESM_REQUIRE_BANNER,
} as const;

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
  return { externalModules: [...RUNTIME_PROVIDED_MODULES, ...unusedModules] };
}

/** One function of the app, as `bench:cold` builds it. */
export interface AppFunction {
  /** The route name, or the handler's name for the queue and schedule functions. */
  readonly name: string;
  /** The handler file under lambdas/src/handlers, without `.ts`. */
  readonly handler: string;
  readonly bundling: FunctionBundling;
}

/**
 * Every function of the deployment with its bundling, as the API and pipeline stacks build them.
 * @param storageBackend - the deployment's table store
 */
export function appFunctions(storageBackend: 'dynamodb' | 'azure'): AppFunction[] {
  void storageBackend;
  return [
    ...deployedRoutes().map((route) => ({
      name: route.name,
      handler: route.handler,
      bundling: functionBundling(),
    })),
    { name: 'analyze', handler: ANALYZE_HANDLER, bundling: functionBundling(OCR_ONLY_MODULES) },
    { name: 'sweep', handler: SWEEP_HANDLER, bundling: functionBundling() },
    { name: 'deadLetter', handler: DEAD_LETTER_HANDLER, bundling: functionBundling() },
  ];
}

/**
 * Modules the analyze function only imports for the local OCR analyzer (ANALYZER=ocr), which a cloud
 * deployment never sets; bundling them would add native code that cannot run on Lambda anyway.
 */
export const OCR_ONLY_MODULES = ['@receipts/analyzer-ocr', 'tesseract.js', 'sharp', '@tesseract.js-data/*'];
