import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../../dev/src/stack';
import { sampleReceiptJpeg } from '../../support/receipt-images';
import { sharedAuthEmulator } from '../../support/shared-auth-emulator';
import { PHONE, evenSidedJpeg, launchChromium, signInWithEmail, watchConsole } from './browser';

export interface Person {
  name: string;
  email: string;
  password: string;
}

/** An account made on the stack's Auth emulator. */
export interface Account {
  localId: string;
  idToken: string;
}

export interface SignedInPageOptions {
  /** Names the temporary folder (e.g. 'screens'). */
  name: string;
  /** The account made first, and signed in on the page unless `signIn` is false. */
  person: Person;
  /** More accounts made on the stack, not signed in (e.g. someone whose data must stay hidden). */
  others?: Person[];
  /** The window's size (default PHONE). */
  viewport?: { width: number; height: number };
  /** More options of the browser context (e.g. `acceptDownloads`). */
  contextOptions?: BrowserContextOptions;
  /** The JPEG the fake camera shows, at its own size (default: sample receipt 0). */
  camera?: Uint8Array;
  /** Options of the local stack beyond its data folder (default: the OCR analyzer, one attempt per scan). */
  stack?: Omit<LocalStackOptions, 'dataDir'>;
  /** Runs once the accounts exist and before signing in: seed their data here. */
  prepare?: (stack: LocalStack, userId: string, idToken: string, others: Account[]) => Promise<void>;
  /**
   * Sign the person in on the Login page before the tests (default true). False leaves the page
   * blank and signed out, for files whose tests go through the Login page themselves.
   */
  signIn?: boolean;
}

export interface SignedInPage {
  stack: LocalStack;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  userId: string;
  /** The person's ID token when the accounts were made, for API calls beside the page. */
  idToken: string;
  /** The accounts of `others`, in their order. */
  others: Account[];
  /** A scratch folder, deleted by `close` (the camera's fake frame is in it). */
  dir: string;
  /** What the page logged as errors, and its uncaught exceptions. */
  problems: string[];
  /** Opens a route of the app, e.g. '/Reports'. */
  go(route: string): Promise<void>;
  /**
   * Signs in with email and password on the Login page of `on` (default the page) as `who`
   * (default the person), and waits for Home.
   */
  signIn(on?: Page, who?: Person): Promise<void>;
  /** Closes the browser and stops the stack. */
  close(): Promise<void>;
}

/**
 * Starts the local stack (Azurite, the API, the built SPA, on the run's shared Auth emulator), makes
 * the accounts, opens headless Chromium (its fake camera showing a sample receipt) and signs in on the
 * Login page, ending on Home. One fresh browser context: no service worker or cache of other tests.
 *
 * Every browser test file starts its app through this function, in its `beforeAll`, and calls
 * `close` in its `afterAll`:
 *
 * ```ts
 * let app: SignedInPage;
 * beforeAll(async () => {
 *   app = await openSignedInPage({
 *     name: 'rules',
 *     person: PERSON,
 *     stack: { analyzer: new FakeAnalyzer() },
 *     prepare: async (stack, userId) => {
 *       await seedReceipts(stack.services.store, userId, RECEIPTS);
 *     },
 *   });
 * });
 * afterAll(async () => {
 *   await app?.close();
 * });
 * ```
 */
export async function openSignedInPage(options: SignedInPageOptions): Promise<SignedInPage> {
  const dir = await mkdtemp(join(tmpdir(), `receipts-e2e-${options.name}-`));
  let stack: LocalStack | undefined;
  let browser: Browser | undefined;
  try {
    stack = await startLocalStack({
      port: 0,
      maxScanAttempts: 1,
      buildWeb: true,
      quiet: true,
      logLevel: 'error',
      authEmulatorHost: await sharedAuthEmulator(),
      ...options.stack,
      dataDir: join(dir, 'data'),
    });
    const started = stack;
    const { person } = options;
    const account = await started.signUp(person.email, person.password, person.name);
    const others: Account[] = [];
    for (const other of options.others ?? []) {
      const { localId, idToken } = await started.signUp(other.email, other.password, other.name);
      others.push({ localId, idToken });
    }
    await options.prepare?.(started, account.localId, account.idToken, others);
    // A JPEG named .mjpeg is what Chromium's fake camera shows, at the image's own size.
    const cameraFile = join(dir, 'camera.mjpeg');
    await writeFile(cameraFile, await evenSidedJpeg(options.camera ?? (await sampleReceiptJpeg(0))));
    browser = await launchChromium(cameraFile);
    const context = await browser.newContext({
      viewport: options.viewport ?? PHONE,
      ...options.contextOptions,
    });
    const page = await context.newPage();
    const problems = watchConsole(page);
    const signIn = (on: Page = page, who: Person = person) => signInWithEmail(on, started.url, who);
    if (options.signIn ?? true) await signIn();
    const opened = browser;
    return {
      stack: started,
      browser: opened,
      context,
      page,
      userId: account.localId,
      idToken: account.idToken,
      others,
      dir,
      problems,
      go: async (route) => {
        await page.goto(new URL(route, started.url).href);
      },
      signIn,
      close: async () => {
        await context.close();
        await opened.close();
        await started.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
