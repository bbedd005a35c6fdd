import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';

/** Debian's Chromium (installed by .ci/run when missing). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots are kept as test artefacts (test-results/ is not committed). */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, '../../../test-results/screenshots');

export const PHONE = { width: 390, height: 844 } as const;
export const WIDE = { width: 1280, height: 800 } as const;

/**
 * What Chromium logs when a list asks for the thumbnail of a receipt seeded without a stored photo
 * (the image call answers 404): expected in tests whose receipts are seeded straight into the store.
 */
export const MISSING_PHOTO = /status of 404 .*\/api\/getImage\?/;

/**
 * A JPEG the fake camera can show: its frames are I420, whose sides must be even, and an odd-sized
 * JPEG is delivered as black 2x2 frames, so it is padded with white.
 */
export async function evenSidedJpeg(jpeg: Uint8Array): Promise<Buffer> {
  const image = sharp(Buffer.from(jpeg));
  const { width = 0, height = 0 } = await image.metadata();
  return image
    .extend({ right: width % 2, bottom: height % 2, background: '#ffffff' })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/**
 * Launches headless Chromium whose camera is a fake device showing `cameraFile` (a JPEG named .mjpeg
 * is delivered as the camera frame at its own size) and whose camera permission is granted.
 */
export async function launchChromium(cameraFile: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${cameraFile}`,
    ],
  });
}

let shot = 0;

/** Saves a full-page screenshot named after the screen, numbered in the order taken. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // Let opening dialogs and fades finish; endless ones (the blinking reports icon) never do.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
  shot += 1;
  const path = join(SCREENSHOT_DIR, `${String(shot).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Collects what the page logs as errors and every uncaught exception, to show when a test fails. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  return problems;
}

/**
 * Signs in with email and password on the app's Login page at `baseUrl`, and waits for Home. Browser
 * tests get it from their `openSignedInPage` fixture; benchmarks call it directly.
 */
export async function signInWithEmail(
  page: Page,
  baseUrl: string,
  person: { email: string; password: string },
): Promise<void> {
  await page.goto(new URL('/Login', baseUrl).href);
  await page.getByRole('button', { name: 'Login with email' }).click();
  const form = page.getByRole('form', { name: 'Sign in with email' });
  await form.getByLabel('Email').fill(person.email);
  await form.getByLabel('Password').fill(person.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/');
}
