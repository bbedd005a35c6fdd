import { describe, expect, it } from 'vitest';
import type { ChainLookup, KnownChain } from '@receipts/core';
import { parseReceiptText, type CharDoubt } from '../src';

/** Two chains, found by their letters and digits with spaces aside (as the brand dictionary does). */
const CHAINS: Array<{ chain: KnownChain; phrase: string }> = [
  {
    chain: { chain: '99 Speedmart', owning_corporation: '99 Speedmart Sdn Bhd', category: 'grocery' },
    phrase: '99 Speedmart',
  },
  {
    chain: { chain: 'Guardian', owning_corporation: 'DFI Retail Group', category: 'pharmacy' },
    phrase: 'Guardian Health and Beauty',
  },
  {
    chain: { chain: 'MR D.I.Y.', owning_corporation: 'MR D.I.Y. Group', category: 'retail' },
    phrase: 'MR D.I.Y.',
  },
];
const key = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
const chains: ChainLookup = {
  chainIn: (text) => CHAINS.find((c) => key(text).includes(key(c.phrase))) ?? null,
};

/** A receipt whose heading is `heading`, the engine's doubts on it (line 0) and nothing else doubted. */
function parseHeading(heading: string, doubts: CharDoubt[]) {
  const text = [heading, 'LOT 12, JALAN ANGSA', '41150 KLANG, SELANGOR', 'BREAD 2.50', 'TOTAL 2.50'].join(
    '\n',
  );
  return parseReceiptText(text, { chains, lineDoubts: [doubts, null, null, null, null] });
}

describe("the heading's doubted letters, settled by known names", () => {
  it('takes the runner-up of a doubted letter that makes the heading a known chain', () => {
    const read = parseHeading('99 SFEED MART S/B (519537-X)', [[4, 0.76, 'P']]);
    expect(read.merchant.name).toBe('99 SPEED MART S/B');
    expect(read.merchant.owning_corporation).toBe('99 Speedmart Sdn Bhd');
  });

  it("puts back the space the chain's name has between its number and its word", () => {
    expect(parseHeading('99SPEED N9RT S/B (519537-X)', [[9, 0.48, 'A']]).merchant.name).toBe(
      '99 SPEED MART S/B',
    );
  });

  it('joins a chain name split at a space the engine nearly read as nothing', () => {
    const read = parseHeading('Guar dian Health And Beauty Sdn Bhd', [[4, 0.53, '_']]);
    expect(read.merchant.name).toBe('Guardian Health And Beauty Sdn Bhd');
  });

  it('keeps a space the engine was fairly sure of, though a spelling of the chain has none', () => {
    expect(parseHeading('99 SPEED MART S/B', [[8, 0.88, '_']]).merchant.name).toBe('99 SPEED MART S/B');
  });

  it('fills a dotted initial left empty with the letter that makes a known chain', () => {
    expect(parseHeading('MR. D.I..(M) SDN BHD', []).merchant.name).toBe('MR. D.I.Y.(M) SDN BHD');
  });

  it('takes a runner-up that makes a word of shop names, where the letter read makes none', () => {
    expect(parseHeading("BERRY'S CARE HOUSE", [[10, 0.51, 'K']]).merchant.name).toBe("BERRY'S CAKE HOUSE");
  });

  it('leaves a heading alone when no runner-up makes a known name, or without doubts', () => {
    expect(parseHeading('HREE STOOGES', [[4, 0.58, '_']]).merchant.name).toBe('HREE STOOGES');
    const text = ['99 SFEED MART S/B', 'TOTAL 2.50'].join('\n');
    expect(parseReceiptText(text, { chains }).merchant.name).toBe('99 SFEED MART S/B');
  });
});

describe('the registered name over its registration number', () => {
  it('is the name, not the trading name printed above it', () => {
    const text = [
      'FACE TO FACE NOODLE HOUSE',
      'FTOF NOODLE HOUSE',
      '(002049088-U)',
      'NO.25, JALAN METRO 2,',
      'TOTAL 9.00',
    ];
    expect(parseReceiptText(text.join('\n')).merchant.name).toBe('FTOF NOODLE HOUSE');
  });
});
