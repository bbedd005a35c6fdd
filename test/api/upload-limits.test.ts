import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppData } from '@receipts/core';
import type { ErrorAnswer } from '@receipts/core/contract/answers';
import { FakeAnalyzer, dataUrlOf, fakeReceiptImage } from '../../packages/core/test/support/fakes';
import { blankPng, inflatingPdf, pagesPdf } from '../support/decode-bombs';
import type { ApiClient } from './support/api-client';
import { signUpClient, startTestStack } from './support/stack';

/**
 * What one account may make the deployment pay for, through HTTP against the local stack: PDFs past
 * the page limit and pictures past the pixel limit are refused at upload (nothing stored or queued),
 * a PDF's preview is not drawn past its inflated size, and "Analyse again" counts as an upload and
 * has a daily limit of its own.
 */
describe('upload limits', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let carol: ApiClient;
  let dave: ApiClient;

  beforeAll(async () => {
    env = await startTestStack({
      analyzer: new FakeAnalyzer(),
      enricher: null,
      quotas: { uploadsPerDay: 2, reanalysesPerDay: 1 },
    });
    [carol, dave] = await Promise.all([
      signUpClient(env.stack, 'carol@example.com', 'Carol'),
      signUpClient(env.stack, 'dave@example.com', 'Dave'),
    ]);
  });
  afterAll(async () => {
    await env?.stop();
  });

  const refused = (answer: { status: number; body: unknown }, status: number, message: RegExp) => {
    expect(answer.status).toBe(status);
    expect((answer.body as ErrorAnswer).message).toMatch(message);
  };

  it('refuses an 11-page PDF saved with object streams, and a 64-megapixel PNG, storing nothing', async () => {
    const pdf = await pagesPdf(11, { objectStreams: true });
    refused(
      await carol.upload('statement.pdf', dataUrlOf(pdf, 'application/pdf')),
      413,
      /^This PDF has 11 pages; a receipt may have at most 10\. Upload a PDF with only the receipt’s pages\.$/,
    );
    refused(
      await carol.upload('huge.png', dataUrlOf(blankPng(8000, 8000), 'image/png')),
      413,
      /8000 x 8000 pixels \(64 megapixels\); the largest accepted is 50 megapixels.*lower resolution/,
    );
    expect((await carol.listQueue()).body).toEqual([]);
    expect((await carol.getImage('statement.pdf')).status).toBe(404);
  });

  it('answers a PDF whose first page inflates past the limit as the PDF, not drawn', async () => {
    const pdf = await inflatingPdf(100);
    expect((await carol.upload('inflating.pdf', dataUrlOf(pdf, 'application/pdf'))).status).toBe(202);
    for (let i = 0; i < 2; i++) {
      const answer = await carol.call<string>('GET', '/api/getImage', {
        query: { userId: carol.userId, blobName: 'inflating.pdf', preview: '1' },
      });
      expect(answer.status).toBe(200);
      expect(answer.body.startsWith('data:application/pdf;base64,')).toBe(true);
    }
  });

  it('counts "Analyse again" against the daily uploads, with a daily limit of its own', async () => {
    const image = (total: number) =>
      dataUrlOf(
        fakeReceiptImage({
          merchant: 'Shop',
          date: '2024-04-02',
          total,
          items: [{ description: 'BREAD', price: total }],
        }),
      );
    expect((await dave.upload('1-receipt.jpg', image(3))).status).toBe(202);
    await dave.waitForQueue();
    const again = async () => {
      const receipt = (await dave.getAppData()).body.reportReceipts[0]!;
      return dave.call('POST', '/api/reanalyseReceipt', {
        body: { userId: dave.userId, receiptId: receipt.receipt_id, etag: receipt.etag },
      });
    };
    expect((await again()).status).toBe(202);
    await dave.waitForQueue();
    const second = await again();
    refused(second, 429, /analysed again today, the most per day/);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    // The upload and the analysis again are the day's two uploads.
    refused(await dave.upload('2-receipt.jpg', image(4)), 429, /uploaded 2 receipts today/);
    const data: AppData = (await dave.getAppData()).body;
    expect(data.reportReceipts).toHaveLength(1);
  });
});
