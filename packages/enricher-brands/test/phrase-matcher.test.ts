import { describe, expect, it } from 'vitest';
import { PhraseMatcher, foldOcr, normalizeText, phraseKey } from '../src';
import { caseSplits, undoubled } from '../src/phrase-matcher';

const matcher = new PhraseMatcher([
  { value: 'dove', phrases: ['Dove'], notWith: ['CHOC'] },
  { value: 'coke', phrases: ['Coca-Cola', 'Coke'] },
  { value: 'coke-zero', phrases: ['Coke Zero'] },
  { value: 'muscle', phrases: ['Mr Muscle'] },
  { value: 'mm', phrases: ["M&M's"] },
  { value: 'seven', phrases: ['7-Eleven'] },
  { value: 'v8', phrases: ['V8'] },
]);
const find = (text: string) => matcher.match(text)?.value ?? null;

describe('PhraseMatcher', () => {
  it('ignores case, accents, apostrophes and punctuation', () => {
    expect(normalizeText("Kellogg's Crème-Brûlée!")).toBe('KELLOGGS CREME BRULEE');
    expect(normalizeText('M & M’S')).toBe('M&MS');
    expect(phraseKey('Coca-Cola')).toBe('COCACOLA');
    expect(find('coca-cola')).toBe('coke');
    expect(find('“COKE”')).toBe('coke');
  });

  it('reads umlauts spelt out as German tills print them, and + between letters as &', () => {
    const german = new PhraseMatcher([
      { value: 'baeren', phrases: ['Bärenmarke'] },
      { value: 'weiss', phrases: ['Weißer Riese'] },
      { value: 'gg', phrases: ['G&G'] },
    ]);
    expect(german.match('BAERENMARKE KAFFEESAHNE')?.value).toBe('baeren');
    expect(german.match('BARENMARKE 10%')?.value).toBe('baeren');
    expect(german.match('WEISSER RIESE PULVER')?.value).toBe('weiss');
    expect(german.match('G+G BIO MUELLBEUTEL')?.value).toBe('gg');
    expect(normalizeText('2+1 GRATIS')).toBe('2 1 GRATIS');
  });

  it('matches whole words only', () => {
    expect(find('DOVE BAR')).toBe('dove');
    expect(find('DOVETAIL')).toBeNull();
    expect(find('TURTLEDOVE')).toBeNull();
    expect(find('COKES')).toBeNull();
  });

  it('treats letters next to digits as separate words', () => {
    expect(find('COKE1.5L')).toBe('coke');
    expect(find('V8 JUICE')).toBe('v8');
  });

  it('forgives missing or extra spaces and hyphens inside a name', () => {
    expect(find('COCACOLA')).toBe('coke');
    expect(find('COCA COLA')).toBe('coke');
    expect(find('7 ELEVEN')).toBe('seven');
    expect(find('7ELEVEN')).toBe('seven');
  });

  it('forgives OCR confusions in names of four characters or more', () => {
    expect(foldOcr('C0CA-C0LA 5 L1')).toBe('COCA-COIA S II');
    expect(find('COCA-C0LA')).toBe('coke');
    expect(find('C0KE')).toBe('coke');
    expect(find('D0VE S0AP')).toBe('dove');
    expect(find('MR MU5CLE')).toBe('muscle');
  });

  it('lets only long names run into the next word', () => {
    expect(find('MRMUSCLEINTANK')).toBe('muscle');
    expect(find('COCACOLAZERO')).toBe('coke');
    expect(find('COKEZERO')).toBe('coke-zero');
    expect(find('DOVESOAP')).toBeNull();
  });

  it('reads capitals running into small letters as two words, either way', () => {
    expect(caseSplits('HHAsahi 1+1/2 SR')).toEqual(['HHA sahi 1+1/2 SR', 'HH Asahi 1+1/2 SR']);
    expect(caseSplits('SELITstop Komfort')).toEqual(['SELIT stop Komfort', 'SELI Tstop Komfort']);
    expect(caseSplits('Coca-Cola GmbH')).toBeNull();
    const shop = new PhraseMatcher([
      { value: 'asahi', phrases: ['Asahi'] },
      { value: 'selit', phrases: ['Selit'] },
    ]);
    expect(shop.match('HHAsahi 1+1/2 SR')).toMatchObject({ value: 'asahi', kind: 'exact' });
    expect(shop.match('SELITstop Komfort-Fe')).toMatchObject({ value: 'selit', kind: 'exact' });
    // all in capitals, a short name still may not run into other letters
    expect(shop.match('HHASAHI 1+1/2 SR')).toBeNull();
    expect(shop.match('SELITSTOP')).toBeNull();
    expect(shop.match('Asahikawa')).toBeNull();
  });

  it('forgives a doubled letter printed once in names of six characters or more, as an OCR-like reading', () => {
    expect(undoubled('GUINNESS')).toBe('GUINES');
    const drinks = new PhraseMatcher([
      { value: 'guinness', phrases: ['Guinness'] },
      { value: 'essie', phrases: ['Essie'] },
    ]);
    expect(drinks.match('HH GUINESS 12 GLASSES')).toMatchObject({ value: 'guinness', kind: 'ocr' });
    expect(drinks.match('GUINNESS STOUT')).toMatchObject({ value: 'guinness', kind: 'exact' });
    expect(drinks.match('GUINNNESS')?.value).toBe('guinness');
    expect(drinks.match('ESIE NAIL')).toBeNull();
    expect(drinks.match('GUINEA FOWL')).toBeNull();
  });

  it('is cancelled by its not-with words', () => {
    expect(find('DOVE MILK CHOCOLATE')).toBeNull();
    expect(find('DOVE CH0C')).toBeNull();
  });

  it('keeps & inside names, so M&M is not MM', () => {
    expect(find('M&MS PEANUT')).toBe('mm');
    expect(find('MMS OYSTER')).toBeNull();
  });

  it('prefers the longest name, then the exact reading, then the leftmost', () => {
    expect(find('COKE ZERO')).toBe('coke-zero');
    expect(matcher.match('COKE ZERO')?.phrase).toBe('Coke Zero');
    const tie = new PhraseMatcher([
      { value: 'a', phrases: ['ALPHA'] },
      { value: 'b', phrases: ['BRAVO'] },
    ]);
    expect(tie.match('BRAVO ALPHA')?.value).toBe('b');
    const ocr = new PhraseMatcher([
      { value: 'exact', phrases: ['SOLO'] },
      { value: 'folded', phrases: ['S0L0'] },
    ]);
    expect(ocr.match('SOLO')?.value).toBe('exact');
  });

  it('finds nothing in empty text or with an empty dictionary', () => {
    expect(find('')).toBeNull();
    expect(find('!!!')).toBeNull();
    expect(new PhraseMatcher<string>([]).match('COKE')).toBeNull();
  });
});
