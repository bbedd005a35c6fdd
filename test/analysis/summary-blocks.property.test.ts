import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReceiptText } from '@receipts/analyzer-ocr';
import { mapAnalyzeExpense } from '@receipts/analyzer-textract';
import { assessReview, checkedConfidence, type AnalysisResult } from '@receipts/core';
import { printAmount, summaryBlocks, type SummaryBlock, type SummaryLine } from '../support/summary-blocks';

/*
 * The total a person can trust: on any summary block (subtotals, taxes added or included, discounts,
 * a cash rounding, tender and change, labels in four languages, one figure unreadable), the total
 * each analyzer chooses is the amount due, or the receipt is flagged for review.
 */

const TODAY = '2026-11-27';
const DATE = '2024-03-12';

/** The block as OCR reads a receipt: a heading, the items, then the summary lines. */
function receiptText(block: SummaryBlock): string {
  const amount = (line: SummaryLine) => (line.unreadable ? '' : printAmount(line.cents, block.language));
  return [
    'KEDAI RUNCIT MAJU SDN BHD',
    'NO 12 JALAN MAJU, 47500 SUBANG JAYA',
    `Date: ${DATE.split('-').reverse().join('.')}`,
    ...block.items.map(
      (cents, i) => `ITEM ${String.fromCharCode(65 + i)}    ${printAmount(cents, block.language)}`,
    ),
    ...block.lines.map((line) => `${line.label}    ${amount(line)}`.trimEnd()),
    'THANK YOU',
  ].join('\n');
}

const TEXTRACT_TYPE: Record<SummaryLine['kind'], string> = {
  subtotal: 'SUBTOTAL',
  tax: 'TAX',
  included_tax: 'TAX',
  discount: 'DISCOUNT',
  total: 'TOTAL',
  rounding: 'OTHER',
  rounded: 'OTHER',
  tender: 'AMOUNT_PAID',
  change: 'OTHER',
};

/** The block as an AnalyzeExpense response: one summary field per line, the items as line items. */
function expenseResponse(block: SummaryBlock, tenderAsTotal: boolean) {
  const field = (type: string, label: string, value: string) => ({
    Type: { Text: type, Confidence: 99 },
    LabelDetection: { Text: label, Confidence: 99 },
    ValueDetection: { Text: value, Confidence: 99 },
    PageNumber: 1,
  });
  return {
    ExpenseDocuments: [
      {
        ExpenseIndex: 1,
        SummaryFields: [
          field('VENDOR_NAME', '', 'KEDAI RUNCIT MAJU SDN BHD'),
          field('INVOICE_RECEIPT_DATE', 'Date', DATE.split('-').reverse().join('/')),
          ...block.lines.map((line) =>
            field(
              // Textract types a tender line as the total now and then.
              line.kind === 'tender' && tenderAsTotal ? 'TOTAL' : TEXTRACT_TYPE[line.kind],
              line.label,
              line.unreadable ? '' : printAmount(line.cents, block.language),
            ),
          ),
        ],
        LineItemGroups: [
          {
            LineItemGroupIndex: 1,
            LineItems: block.items.map((cents, i) => ({
              LineItemExpenseFields: [
                field('ITEM', '', `ITEM ${String.fromCharCode(65 + i)}`),
                field('PRICE', '', printAmount(cents, block.language)),
              ],
            })),
          },
        ],
      },
    ],
  };
}

function rightOrFlagged(
  result: Pick<AnalysisResult, 'receipt' | 'items' | 'confidence' | 'contradicted'>,
  block: SummaryBlock,
) {
  const right =
    result.receipt.total_amount !== null && Math.round(result.receipt.total_amount * 100) === block.dueCents;
  const review = assessReview(result, TODAY);
  return {
    right,
    flagged: review.needs_review,
    reasons: review.review_reasons,
    total: result.receipt.total_amount,
  };
}

describe('the total of a generated summary block', () => {
  it('is the amount due, or the receipt is flagged, when read by OCR', () => {
    fc.assert(
      fc.property(summaryBlocks(), (block) => {
        const parsed = parseReceiptText(receiptText(block));
        const outcome = rightOrFlagged({ ...parsed, confidence: checkedConfidence(parsed) }, block);
        expect(outcome.right || outcome.flagged, `${receiptText(block)}\n-> ${outcome.total}`).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('is the amount due, or the receipt is flagged, when mapped from Textract', () => {
    fc.assert(
      fc.property(summaryBlocks(), fc.boolean(), (block, tenderAsTotal) => {
        const response = expenseResponse(block, tenderAsTotal);
        const outcome = rightOrFlagged(mapAnalyzeExpense(response), block);
        expect(outcome.right || outcome.flagged, `${JSON.stringify(block.lines)}\n-> ${outcome.total}`).toBe(
          true,
        );
      }),
      { numRuns: 400 },
    );
  });

  it('is the amount due and unflagged when every figure reads and agrees (Textract)', () => {
    fc.assert(
      fc.property(
        summaryBlocks().filter(
          (b) => b.lines.every((l) => !l.unreadable) && b.lines.some((l) => l.kind === 'tender'),
        ),
        (block) => {
          const outcome = rightOrFlagged(mapAnalyzeExpense(expenseResponse(block, false)), block);
          expect(outcome.right, `${JSON.stringify(block.lines)}\n-> ${outcome.total}`).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
