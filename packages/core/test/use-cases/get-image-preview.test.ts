import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, getImage, type PdfPreviewer } from '../../src';
import { getImageQuery } from '../../src/contract/requests';
import { MemoryBlobStore, identity } from '../support/fakes';

const alice = identity('alice');
const pdf = new TextEncoder().encode('%PDF-1.4 a receipt');
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const pngUrl = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
const pdfUrl = `data:application/pdf;base64,${Buffer.from(pdf).toString('base64')}`;

async function blobsWithPdf() {
  const blobs = new MemoryBlobStore();
  await blobs.put('alice/1714560000000-receipt.pdf', pdf, 'application/pdf');
  await blobs.put('alice/1714560000001-receipt.png', png, 'image/png');
  return blobs;
}

const drawn: PdfPreviewer = { firstPage: async () => png };
const input = (blobName: string, preview?: boolean) => ({ userId: 'alice', blobName, preview });

describe('getImage with preview', () => {
  it("answers a PDF's first page as a PNG when asked for a preview and a previewer is configured", async () => {
    const deps = { blobs: await blobsWithPdf(), previewer: drawn };
    expect(await getImage(deps, alice, input('1714560000000-receipt.pdf', true))).toBe(pngUrl);
    // The file itself without preview, and images as they are.
    expect(await getImage(deps, alice, input('1714560000000-receipt.pdf'))).toBe(pdfUrl);
    expect(await getImage(deps, alice, input('1714560000001-receipt.png', true))).toBe(pngUrl);
  });

  it('answers the PDF itself without a previewer, or when the PDF cannot be drawn', async () => {
    const blobs = await blobsWithPdf();
    expect(await getImage({ blobs }, alice, input('1714560000000-receipt.pdf', true))).toBe(pdfUrl);
    const broken: PdfPreviewer = {
      firstPage: () => Promise.reject(new Error('damaged')),
    };
    expect(
      await getImage({ blobs, previewer: broken }, alice, input('1714560000000-receipt.pdf', true)),
    ).toBe(pdfUrl);
  });

  it("never draws another user's PDF: the owner check comes first", async () => {
    let calls = 0;
    const counting: PdfPreviewer = { firstPage: async () => (calls++, png) };
    const deps = { blobs: await blobsWithPdf(), previewer: counting };
    await expect(
      getImage(deps, identity('bob'), input('1714560000000-receipt.pdf', true)),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      getImage(deps, identity('bob'), {
        userId: 'bob',
        blobName: '1714560000000-receipt.pdf',
        preview: true,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(calls).toBe(0);
  });

  it('validates the preview parameter with a message a person can act on', () => {
    expect(getImageQuery.parse({ userId: 'alice', blobName: 'a.pdf', preview: '1' }).preview).toBe(true);
    expect(getImageQuery.parse({ userId: 'alice', blobName: 'a.pdf' }).preview).toBe(false);
    const wrong = getImageQuery.safeParse({ userId: 'alice', blobName: 'a.pdf', preview: 'yes' });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toBe(
      'preview must be 1 (a picture to show) or 0 (the stored file).',
    );
  });
});
