import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_RECEIPTS, anotherCopy, sampleReceiptJpeg } from '../support/receipt-images';
import { ApiClient, jpegDataUrl } from './support/api-client';
import { startTestStack } from './support/stack';

/**
 * Stopping the local server with scans still queued loses none: the next start on the same data
 * folder analyses them, and the accounts are still there.
 */
describe('a restart in the middle of a queue', () => {
  let dataDir = '';
  let stop: (() => Promise<void>) | undefined;

  afterAll(async () => {
    await stop?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // Two starts of its own Auth emulator (about 17 s of CPU each) and five scans: longer than the
  // project's 60 s when another file runs beside it.
  it('resumes every queued scan after a restart and keeps the accounts', { timeout: 180_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'receipts-restart-'));
    const first = await startTestStack({ dataDir, authEmulator: 'own' });
    stop = first.stop;
    const session = await first.stack.signUp('carol@example.com', 'correct-horse-battery', 'Carol');
    const carol = new ApiClient(first.stack.url, session.idToken, session.localId);
    const uploads = 5;
    const fileNames = Array.from({ length: uploads }, (_, i) => `${1730000000000 + i}-receipt.jpg`);
    for (const [i, fileName] of fileNames.entries()) {
      const sample = await sampleReceiptJpeg(i % SAMPLE_RECEIPTS.length);
      // A second copy of a sample is encoded anew: the same bytes twice are refused as a duplicate.
      const copy = Math.floor(i / SAMPLE_RECEIPTS.length);
      const image = copy === 0 ? sample : await anotherCopy(sample, copy);
      expect((await carol.upload(fileName, jpegDataUrl(image))).status).toBe(202);
    }
    const pending = (await carol.listQueue()).body.filter(
      (e) => e.status === 'false' || e.status === 'Analyzing',
    );
    expect(pending.length).toBeGreaterThan(1);
    await first.stop();
    stop = undefined;

    const second = await startTestStack({ dataDir, authEmulator: 'own' });
    stop = second.stop;
    // The account survived: signing in with the same password works and keeps the uid.
    const again = await second.stack.signIn('carol@example.com', 'correct-horse-battery');
    expect(again.localId).toBe(session.localId);
    const client = new ApiClient(second.stack.url, again.idToken, again.localId);
    expect(await client.waitForQueue()).toEqual([]);
    const data = (await client.getAppData()).body;
    expect(data.reportReceipts.map((r) => r.document_url.split('/').pop()).sort()).toEqual(fileNames);
  });
});
