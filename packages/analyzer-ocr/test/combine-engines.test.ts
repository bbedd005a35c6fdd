import { describe, expect, it } from 'vitest';
import { combineEngineReadings, paddleNameStands, parseReceiptText, respace, spacedLike } from '../src';

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
    // Tesseract surer: its name stays.
    expect(combineEngineReadings(unsure, sure).merchant.name).toBe('POPULAR BOOK CO. (M) SDN BHD');
    const glued = parseReceiptText(lines('POPULARBOOKHOUSE (M) SDN BHD'), { lineConfidences: [0.99, 0.99] });
    const spaced = parseReceiptText(lines('FOFULAR BODE. HOUSE (M) SDN BHD'), {
      lineConfidences: [0.7, 0.9],
    });
    // PaddleOCR's letters with the spaces Tesseract kept.
    expect(combineEngineReadings(glued, spaced).merchant.name).toBe('POPULAR BOOK HOUSE (M) SDN BHD');
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
    const own = lines('KEDAI RUNCIT MAJU SDN BHD', 0.9);
    expect(paddleNameStands(own)).toBe(true);
    const alone = combineEngineReadings(own, null);
    expect(alone.merchant.name).toBe('KEDAI RUNCIT MAJU SDN BHD');
    // With no heading read, the spaces PaddleOCR dropped before known words are put back.
    expect(combineEngineReadings(lines('KEDAIRUNCIT MAJU SDNBHD', 0.9), null).merchant.name).toBe(
      'KEDAI RUNCIT MAJU SDN BHD',
    );
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
    // A known word that had to be split from its neighbour: the line lost its spaces, maybe elsewhere too.
    expect(paddleNameStands(lines('KEDAIRUNCIT MAJU SDNBHD', 0.99))).toBe(false);
    expect(paddleNameStands(lines('BOOKTAK (TAMAN DAYA)SDN BHD', 0.99))).toBe(false);
  });

  it("reads the name with PaddleOCR's letters and Tesseract's spaces when both read the same line", () => {
    const read = (name: string, confidence: number) =>
      parseReceiptText([name, 'TOTAL RM 9.00'].join('\n'), { lineConfidences: [confidence, 0.95] });
    const name = (paddleName: string, tesseractName: string) =>
      combineEngineReadings(read(paddleName, 0.97), read(tesseractName, 0.87)).merchant.name;
    expect(name('SANYU STATIONERYSHOP', 'SANYO STATIONERY SHOP')).toBe('SANYU STATIONERY SHOP');
    expect(name('LIANHING STATIONERYSDNBHD', 'LIAN HING STATI0NERY SDN BHD')).toBe(
      'LIAN HING STATIONERY SDN BHD',
    );
    // PaddleOCR kept its words (read too unsurely to stand alone) and Tesseract ran them together:
    // PaddleOCR's reading as it is.
    const kept = read('KEDAI RUNCIT MAJU SDN BHD', 0.79);
    expect(paddleNameStands(kept)).toBe(false);
    expect(combineEngineReadings(kept, read('KEDAIRUNCIT MAJU SDNBHD', 0.6)).merchant.name).toBe(
      'KEDAI RUNCIT MAJU SDN BHD',
    );
  });

  it("falls back to Tesseract's reading when PaddleOCR found no total", () => {
    const none = parseReceiptText('SANSAMTRADINGCO');
    expect(combineEngineReadings(none, tesseract).receipt.total_amount).toBe(14.01);
  });
});

describe('spacedLike', () => {
  it("puts one reading's letters between the other reading's spaces", () => {
    expect(spacedLike('SANYU STATIONERYSHOP', 'SANYO STATIONERY SHOP')).toBe('SANYU STATIONERY SHOP');
    // A space that only one reading put inside a word goes.
    expect(spacedLike('Guar dian Health', 'buardian Health')).toBe('Guardian Health');
    // Characters only the spaced reading has carry their space to the next letter.
    expect(spacedLike('BOOKTAK(TAMAN DAYA)', 'BOOK TA .K (TAMAN DAYA)')).toBe('BOOK TA K (TAMAN DAYA)');
    // Letters only the first reading has keep their place.
    expect(spacedLike('THREE STOOGES', 'HREE STOOGES')).toBe('THREE STOOGES');
    // Characters outside the Basic Multilingual Plane count as one.
    expect(spacedLike('A𝐁CD', 'A𝐁 C D')).toBe('A𝐁 C D');
  });
});

describe('respace', () => {
  it('puts back the spaces PaddleOCR drops between the known words of company names', () => {
    expect(respace('UNIHAKKAINTERNATIONALSDNBHD')).toBe('UNIHAKKA INTERNATIONAL SDN BHD');
    expect(respace('PERNIAGAANRIANG RIA')).toBe('PERNIAGAAN RIANG RIA');
    expect(respace('SINNATHAMBYHOLDINGSSDN.BHD.')).toBe('SINNATHAMBY HOLDINGS SDN. BHD.');
    // Words made with MARKET stay whole.
    expect(respace('MYDIN HYPERMARKET SDNBHD')).toBe('MYDIN HYPERMARKET SDN BHD');
    expect(respace('GIANT SUPERMARKET')).toBe('GIANT SUPERMARKET');
  });
});
