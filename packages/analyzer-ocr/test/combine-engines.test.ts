import { describe, expect, it } from 'vitest';
import { combineEngineReadings, paddleNameStands, parseReceiptText, respace } from '../src';

const paddle = parseReceiptText(
  ['SANSAMTRADINGCO', 'Date 25/12/20188:13:39PM', 'EZL A4 PAPER 1X 8.90 8.90', 'TOTAL RM 14.10'].join('\n'),
);
const tesseract = parseReceiptText(
  ['SAN SAM TRADING CO', 'Date 25/12/2018 8:13:39PM', 'EZL A4 PAPER 1X 8.90 8.90', 'TOTAL RM 14.01'].join(
    '\n',
  ),
);

describe('combineEngineReadings', () => {
  it("takes PaddleOCR's figures and Tesseract's words, and marks the total the engines disagree on", () => {
    const combined = combineEngineReadings(paddle, tesseract);
    expect(combined.merchant.name).toBe('SAN SAM TRADING CO');
    expect(combined.receipt.total_amount).toBe(14.1);
    expect(combined.receipt.transaction_date).toBe('2018-12-25');
    expect(combined.confidence['receipt.total_amount']).toBeLessThanOrEqual(0.6);
    expect(combined.confidence['receipt.transaction_date']).toBeGreaterThanOrEqual(0.9);
  });

  it("takes PaddleOCR's letters for the name when both read the same line and PaddleOCR is surer", () => {
    const lines = (name: string) => [name, 'TOTAL RM 14.10'].join('\n');
    const sure = parseReceiptText(lines('POPULAR BOOK CO. (M) SDN BHD'), { lineConfidences: [0.95, 0.95] });
    const unsure = parseReceiptText(lines('FOFULAR BODE. CO. (M) SDN BHD'), { lineConfidences: [0.7, 0.9] });
    expect(combineEngineReadings(sure, unsure).merchant.name).toBe('POPULAR BOOK CO. (M) SDN BHD');
    // Tesseract surer, or PaddleOCR with words run together: Tesseract's name stays.
    expect(combineEngineReadings(unsure, sure).merchant.name).toBe('POPULAR BOOK CO. (M) SDN BHD');
    const glued = parseReceiptText(lines('POPULARBOOKHOUSE (M) SDN BHD'), { lineConfidences: [0.99, 0.99] });
    const spaced = parseReceiptText(lines('FOFULAR BODE. HOUSE (M) SDN BHD'), {
      lineConfidences: [0.7, 0.9],
    });
    expect(combineEngineReadings(glued, spaced).merchant.name).toBe('FOFULAR BODE. HOUSE (M) SDN BHD');
    // Another line altogether is no correction of the name.
    const other = parseReceiptText(lines('TAMAN BERKELEY'), { lineConfidences: [0.99, 0.99] });
    expect(combineEngineReadings(other, unsure).merchant.name).toBe('FOFULAR BODE. CO. (M) SDN BHD');
  });

  it('takes the country and currency from the heading when PaddleOCR ran the postcode into the town', () => {
    const figures = parseReceiptText(
      ['CORNERPANTRY', 'LEEDSLS14DT', 'DATE: 05/11/2023', 'TOTAL f11.40', 'CASH 20.00'].join('\n'),
    );
    const heading = parseReceiptText(['CORNER PANTRY', '14 STATION ROAD', 'LEEDS LS1 4DT'].join('\n'));
    expect(figures.receipt.country_region).toBeNull();
    const combined = combineEngineReadings(figures, heading);
    expect(combined.receipt).toMatchObject({
      total_amount: 11.4,
      country_region: 'GB',
      currency_code: 'GBP',
    });
  });

  it("keeps PaddleOCR's own company name, spaces put back, when it stands without Tesseract's reading", () => {
    const lines = (name: string, confidence: number) =>
      parseReceiptText([name, 'DATE 16/03/2018', 'TOTAL RM 44.30'].join('\n'), {
        lineConfidences: [confidence, 0.95, 0.95],
      });
    const own = lines('KEDAIRUNCIT MAJU SDNBHD', 0.9);
    expect(paddleNameStands(own)).toBe(true);
    const alone = combineEngineReadings(own, null);
    expect(alone.merchant.name).toBe('KEDAI RUNCIT MAJU SDN BHD');
    expect(alone.receipt).toMatchObject({ total_amount: 44.3, transaction_date: '2018-03-16' });
    // Without a second reading nothing is confirmed by agreement.
    expect(alone.confidence['receipt.total_amount']).toBe(own.confidence['receipt.total_amount']);
    // Read again by Tesseract (the whole page, for a missing figure), the name is still PaddleOCR's.
    expect(combineEngineReadings(own, lines('KEDAI RUNCIT MAJV SDN BHD', 0.99)).merchant.name).toBe(
      'KEDAI RUNCIT MAJU SDN BHD',
    );
    // Not a company name, read with too little confidence, or words still run together: Tesseract reads the heading.
    expect(paddleNameStands(lines('KEDAI RUNCIT MAJU', 0.99))).toBe(false);
    expect(paddleNameStands(lines('KEDAI RUNCIT MAJU SDN BHD', 0.6))).toBe(false);
    expect(paddleNameStands(lines('KEDAIRUNCITMAJUMASJAYA SDN BHD', 0.99))).toBe(false);
  });

  it("falls back to Tesseract's reading when PaddleOCR found no total", () => {
    const none = parseReceiptText('SANSAMTRADINGCO');
    expect(combineEngineReadings(none, tesseract).receipt.total_amount).toBe(14.01);
  });
});

describe('respace', () => {
  it('puts back the spaces PaddleOCR drops between the known words of company names', () => {
    expect(respace('UNIHAKKAINTERNATIONALSDNBHD')).toBe('UNIHAKKA INTERNATIONAL SDN BHD');
    expect(respace('PERNIAGAANRIANG RIA')).toBe('PERNIAGAAN RIANG RIA');
    expect(respace('SINNATHAMBYHOLDINGSSDN.BHD.')).toBe('SINNATHAMBY HOLDINGS SDN. BHD.');
  });
});
