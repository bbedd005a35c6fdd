import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../../dev/src/stack';
import { sampleReceiptJpeg } from '../../support/receipt-images';
import { PHONE, evenSidedJpeg, launchChromium, signInWithEmail, watchConsole } from './browser';

export interface Person {
  name: string;
  email: string;
  password: string;
}

export interface SignedInPageOptions {
  /** Names the temporary folder (e.g. 'screens'). */
  name: string;
  person: Person;
  /** The window's size (default PHONE). */
  viewport?: { width: number; height: number };
  /** Options of the local stack beyond its data folder (default: the OCR analyzer, one attempt per scan). */
  stack?: Omit<LocalStackOptions, 'dataDir'>;
  /** Runs once the account exists and before signing in: seed its data here. */
  prepare?: (stack: LocalStack, userId: string, idToken: string) => Promise<void>;
}

export interface SignedInPage {
  stack: LocalStack;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  userId: string;
  /** A scratch folder, deleted by `close` (the camera's fake frame is in it). */
  dir: string;
  /** What the page logged as errors, and its uncaught exceptions. */
  problems: string[];
  /** Opens a route of the app, e.g. '/Reports'. */
  go(route: string): Promise<void>;
  /** Closes the browser and stops the stack. */
  close(): Promise<void>;
}

/**
 * Starts the local stack (Azurite, the Auth emulator, the API, the built SPA), makes the person's
 * account, opens headless Chromium (its fake camera showing a sample receipt) and signs in on the
 * Login page, ending on Home. One fresh browser context: no service worker or cache of other tests.
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
      ...options.stack,
      dataDir: join(dir, 'data'),
    });
    const { person } = options;
    const account = await stack.signUp(person.email, person.password, person.name);
    await options.prepare?.(stack, account.localId, account.idToken);
    const cameraFile = join(dir, 'camera.mjpeg');
    await writeFile(cameraFile, await evenSidedJpeg(await sampleReceiptJpeg(0)));
    browser = await launchChromium(cameraFile);
    const context = await browser.newContext({ viewport: options.viewport ?? PHONE });
    const page = await context.newPage();
    const problems = watchConsole(page);
    await signInWithEmail(page, stack.url, person);
    const started = stack;
    const opened = browser;
    return {
      stack: started,
      browser: opened,
      context,
      page,
      userId: account.localId,
      dir,
      problems,
      go: async (route) => {
        await page.goto(new URL(route, started.url).href);
      },
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
