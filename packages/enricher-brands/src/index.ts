export { DictionaryEnricher, type DictionaryEnricherOptions } from './dictionary-enricher';
export {
  BRANDS,
  MERCHANTS,
  CHAIN_CATEGORIES,
  brandEntriesOf,
  merchantEntriesOf,
  type BrandEntry,
  type MerchantEntry,
} from './dataset';
export {
  PhraseMatcher,
  normalizeText,
  phraseKey,
  foldOcr,
  type PhraseEntry,
  type PhraseMatch,
} from './phrase-matcher';
