import { describe, expect, it } from 'vitest';
import { joinPageTexts, parseReceiptText, renderPdfFirstPage } from '../src';

describe('joinPageTexts', () => {
  it('drops page numbers and continuation notes, keeping the pages in order', () => {
    const text = joinPageTexts([
      'SHOP LTD\nDATE: 01/02/2024\nBREAD 1.20\nPage 1 of 2\n(continued)',
      '- 2 -\nMILK 0.90\nTOTAL 2.10\n2/2',
    ]);
    expect(text).toBe('SHOP LTD\nDATE: 01/02/2024\nBREAD 1.20\nMILK 0.90\nTOTAL 2.10');
  });

  it('gives the parser one receipt: items of both pages, the total of the last', () => {
    const parsed = parseReceiptText(
      joinPageTexts(['CORNER SHOP LTD\nDATE: 01/02/2024\nBREAD 1.20\nPage 1 of 2', 'MILK 0.90\nTOTAL £2.10']),
    );
    expect(parsed.items.map((i) => i.description)).toEqual(['BREAD', 'MILK']);
    expect(parsed.receipt.total_amount).toBe(2.1);
    expect(parsed.receipt.total_checks_out).toBe(true);
  });

  it('leaves out pages with nothing on them', () => {
    expect(joinPageTexts(['A 1.00', '  ', 'Page 3 of 3'])).toBe('A 1.00');
  });
});

describe('renderPdfFirstPage', () => {
  it('refuses bytes that are not a PDF it can open, with a message for the user', async () => {
    await expect(renderPdfFirstPage(new TextEncoder().encode('%PDF-1.7 broken'))).rejects.toThrow(
      /could not be opened/,
    );
  });
});
