import { describe, expect, it } from 'vitest';
import { tidyMerchantName } from '../../src/parsing';

/**
 * Company names as OCR reads them: one misread letter in the words shop names are made of, the
 * legal form's last letters, and digits inside dotted initials are repaired; proper names are not.
 */
describe('tidyMerchantName', () => {
  it('repairs one misread letter in a word that says what the business is, keeping its case', () => {
    expect(tidyMerchantName('SIN THYE & COMFANY')).toBe('SIN THYE & COMPANY');
    expect(tidyMerchantName('VERBENA CONFECTIUNERY SDN BHD')).toBe('VERBENA CONFECTIONERY SDN BHD');
    expect(tidyMerchantName('Aik Huat Hardhare Enterprise')).toBe('Aik Huat Hardware Enterprise');
  });

  it('puts back one letter OCR left out of such a word, but not a plural S', () => {
    expect(tidyMerchantName('SANYU STATONERY SHOP')).toBe('SANYU STATIONERY SHOP');
    expect(tidyMerchantName('Lim Hardwre Trading')).toBe('Lim Hardware Trading');
    expect(tidyMerchantName('ELKEN SERVICE SDN BHD')).toBe('ELKEN SERVICE SDN BHD');
    expect(tidyMerchantName('KAISON PRODUCT SDN BHD')).toBe('KAISON PRODUCT SDN BHD');
  });

  it('puts back the space OCR lost before such a word', () => {
    expect(tidyMerchantName('SANYUSTATIONERY SHOP')).toBe('SANYU STATIONERY SHOP');
    expect(tidyMerchantName('Golden Bakeries')).toBe('Golden Bakeries');
    expect(tidyMerchantName('SUPERMARKET JAYA')).toBe('SUPERMARKET JAYA');
  });

  it('leaves proper names, short words and two misread letters alone', () => {
    // A name one letter away from a business word is not one.
    expect(tidyMerchantName('TOFFEE HOUSE')).toBe('TOFFEE HOUSE');
    expect(tidyMerchantName('SANYO STATIONERY SHOP')).toBe('SANYO STATIONERY SHOP');
    // A business word one letter from another is itself: grocers are not a grocery.
    expect(tidyMerchantName('FRESHMART GROCERS')).toBe('FRESHMART GROCERS');
    // Two letters off: not surely the word.
    expect(tidyMerchantName('GARDENIA PAREN ES')).toBe('GARDENIA PAREN ES');
    expect(tidyMerchantName('KOMFAMY TRADING')).toBe('KOMFAMY TRADING');
  });

  it('completes a legal form whose last letters were misread or cut off', () => {
    expect(tidyMerchantName('ONE ONE THREE SEAFOOD RESTAURANT SDN BH')).toBe(
      'ONE ONE THREE SEAFOOD RESTAURANT SDN BHD',
    );
    expect(tidyMerchantName('Guardian Health And Beauty Sdn Bnd')).toBe('Guardian Health And Beauty Sdn Bhd');
    expect(tidyMerchantName('BH PETROL SDN BHD')).toBe('BH PETROL SDN BHD');
    expect(tidyMerchantName('MR. D.I.Y. (KUCHAI) SIN BHD')).toBe('MR. D.I.Y. (KUCHAI) SDN BHD');
    // The (M) of a Malaysian company, its M misread; other brackets stay.
    expect(tidyMerchantName('Anzel Advertising (4) Sdn bhd')).toBe('Anzel Advertising (M) Sdn bhd');
    expect(tidyMerchantName('GARDENIA BAKERIES (KL) SDN BHD')).toBe('GARDENIA BAKERIES (KL) SDN BHD');
  });

  it('reads digits inside dotted initials as the letters they look like', () => {
    expect(tidyMerchantName('MR. D.1.Y. (M) SDN BHD')).toBe('MR. D.I.Y. (M) SDN BHD');
    expect(tidyMerchantName('A.5.B. TRADING')).toBe('A.S.B. TRADING');
    // Numbers that are numbers stay: a lot number, a version.
    expect(tidyMerchantName('LOT 1.2.3 MART')).toBe('LOT 1.2.3 MART');
  });

  it('closes a bracket left open before the legal form, its `)` read as a thin letter', () => {
    expect(tidyMerchantName('AIK HUAT HARDWARE ENTERPRISE (SETIA ALAMI SDN BHD')).toBe(
      'AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD',
    );
    expect(tidyMerchantName('ABC TRADING (KL1 SDN BHD')).toBe('ABC TRADING (KL) SDN BHD');
    // A closed bracket, or a word ending in another letter, stays as read.
    expect(tidyMerchantName('KEDAI (BUKIT JALIL) SDN BHD')).toBe('KEDAI (BUKIT JALIL) SDN BHD');
    expect(tidyMerchantName('KEDAI (BUKIT JALAN SDN BHD')).toBe('KEDAI (BUKIT JALAN SDN BHD');
  });

  it('repairs a shorter shop word only where a letter was read as one of the same shape (M/N, B/H)', () => {
    expect(tidyMerchantName('99 SPEED NART S/B (S19537-X)')).toBe('99 SPEED MART S/B');
    expect(tidyMerchantName('Guardian Health And Heauty Sdn Hhd')).toBe('Guardian Health And Beauty Sdn Bhd');
    // A real word, or a letter of another shape, stays as read.
    expect(tidyMerchantName('HOOK SEAFOOD')).toBe('HOOK SEAFOOD');
    expect(tidyMerchantName('MOUSE HOUSE')).toBe('MOUSE HOUSE');
    expect(tidyMerchantName('SHOT BAR')).toBe('SHOT BAR');
  });

  it('removes a registration number whose hyphen was read as a middle dot', () => {
    expect(tidyMerchantName('99 SPEED MART S/D (519537·X)')).toBe('99 SPEED MART S/B');
  });

  it('drops a lone figure and dot printed apart before the name', () => {
    expect(tidyMerchantName('1 . Yam Fresh')).toBe('Yam Fresh');
    expect(tidyMerchantName('1. Utama Bakery')).toBe('1. Utama Bakery');
    expect(tidyMerchantName('99 SPEED MART S/B')).toBe('99 SPEED MART S/B');
  });
});
