import { describe, expect, it } from 'vitest';
import { receiptIdFor, type AnalyzedMerchant, type MerchantRow, type ReceiptRow } from '../../src';
import { matchMerchant } from '../../src/use-cases/merchant-match';

const analysed = (over: Partial<AnalyzedMerchant> = {}): AnalyzedMerchant => ({
  name: 'Lidl',
  phone_number: null,
  postal_code: '1010',
  city: 'Wien',
  street_address: 'Hauptstraße 1',
  ...over,
});

const merchant = (over: Partial<MerchantRow>): MerchantRow => ({
  merchant_id: 'm-1',
  name: 'Lidl',
  phone_number: null,
  postal_code: null,
  city: null,
  street_address: null,
  user_id: 'user-1',
  owning_corporation: null,
  vectors: null,
  name_key: 'lidl',
  ...over,
});

const previousReceipt = (over: Partial<ReceiptRow>): ReceiptRow =>
  ({ receipt_id: receiptIdFor('user-1', 'a.jpg'), merchant_id: 'm-old', edited: [], ...over }) as ReceiptRow;

describe('matchMerchant', () => {
  it('reuses the merchant of the same name and postal code, keeping its id and name and filling its gaps', () => {
    const vienna = merchant({ merchant_id: 'lidl-vienna', name: 'LIDL Wien', postal_code: '1010' });
    const graz = merchant({ merchant_id: 'lidl-graz', postal_code: '8010', phone_number: '0316 1' });
    const row = matchMerchant({
      userId: 'user-1',
      analysed: analysed({ name: '  lidl ', phone_number: '01 234' }),
      merchants: [graz, vienna],
      previous: null,
    });
    expect(row).toMatchObject({
      merchant_id: 'lidl-vienna',
      name: 'LIDL Wien',
      postal_code: '1010',
      phone_number: '01 234',
      city: 'Wien',
      street_address: 'Hauptstraße 1',
      user_id: 'user-1',
    });
  });

  it('matches postal codes written differently, and a merchant without one when the receipt has none', () => {
    const spaced = merchant({ merchant_id: 'spaced', postal_code: 'sw1a 1aa' });
    expect(
      matchMerchant({
        userId: 'user-1',
        analysed: analysed({ postal_code: 'SW1A1AA' }),
        merchants: [spaced],
        previous: null,
      }).merchant_id,
    ).toBe('spaced');
    expect(
      matchMerchant({
        userId: 'user-1',
        analysed: analysed({ postal_code: null }),
        merchants: [spaced],
        previous: null,
      }).merchant_id,
    ).toBe('spaced');
  });

  it('makes a new merchant when only the name matches and the postal codes differ', () => {
    const graz = merchant({ merchant_id: 'lidl-graz', postal_code: '8010' });
    const row = matchMerchant({ userId: 'user-1', analysed: analysed(), merchants: [graz], previous: null });
    expect(row.merchant_id).not.toBe('lidl-graz');
    expect(row).toMatchObject({
      name: 'Lidl',
      name_key: 'lidl',
      postal_code: '1010',
      owning_corporation: null,
    });
    // The id follows from name and postal code, so the same shop seen again gets the same id.
    expect(matchMerchant({ userId: 'user-1', analysed: analysed(), merchants: [], previous: null })).toEqual(
      row,
    );
  });

  it('names a merchant the analysis could not read "Unknown Merchant"', () => {
    const row = matchMerchant({
      userId: 'user-1',
      analysed: analysed({ name: '   ', postal_code: null }),
      merchants: [],
      previous: null,
    });
    expect(row.name).toBe('Unknown Merchant');
  });

  it('keeps the merchant a person chose for the receipt, with its owner, when analysed again', () => {
    const chosen = merchant({
      merchant_id: 'm-old',
      name: 'My corner shop',
      name_key: 'my corner shop',
      owning_corporation: 'Family Ltd',
    });
    const lidl = merchant({ merchant_id: 'lidl', postal_code: '1010' });
    const row = matchMerchant({
      userId: 'user-1',
      analysed: analysed({ owning_corporation: 'Schwarz Gruppe' }),
      merchants: [lidl, chosen],
      previous: previousReceipt({ merchant_id: 'm-old', edited: ['merchant_name'] }),
    });
    expect(row).toMatchObject({
      merchant_id: 'm-old',
      name: 'My corner shop',
      name_key: 'my corner shop',
      owning_corporation: 'Family Ltd',
    });
  });

  it('moves an unedited receipt to the merchant the new reading names', () => {
    const old = merchant({ merchant_id: 'm-old', name: 'Spar', name_key: 'spar' });
    const row = matchMerchant({
      userId: 'user-1',
      analysed: analysed({ owning_corporation: 'Schwarz Gruppe' }),
      merchants: [old],
      previous: previousReceipt({ merchant_id: 'm-old' }),
    });
    expect(row.merchant_id).not.toBe('m-old');
    expect(row).toMatchObject({ name: 'Lidl', owning_corporation: 'Schwarz Gruppe' });
  });
});
