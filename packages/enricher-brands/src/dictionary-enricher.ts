import type { BrandMatch, Enricher } from '@receipts/core';
import { BRANDS, MERCHANTS, type BrandEntry, type MerchantEntry } from './dataset';
import { PhraseMatcher } from './phrase-matcher';

export interface DictionaryEnricherOptions {
  /** Brands to match; the shipped dataset by default. */
  brands?: readonly BrandEntry[];
  /** Store chains to match; the shipped dataset by default. */
  merchants?: readonly MerchantEntry[];
}

/**
 * The default Enricher: finds a known brand in an item description and a known store chain in a
 * merchant name, from the shipped dataset (data/brands.json, data/merchants.json; see README.md for
 * the sources and the matching rules). Unknown stays null: nothing is guessed.
 *
 * Both dictionaries are indexed once, in the constructor; a lookup reads a few map entries per word.
 */
export class DictionaryEnricher implements Enricher {
  private readonly brands: PhraseMatcher<BrandEntry>;
  private readonly merchants: PhraseMatcher<MerchantEntry>;

  constructor(options: DictionaryEnricherOptions = {}) {
    this.brands = new PhraseMatcher(
      (options.brands ?? BRANDS).map((entry) => ({
        value: entry,
        phrases: [...(entry.aliases_only ? [] : [entry.brand]), ...(entry.aliases ?? [])],
        notWith: entry.not_with ?? [],
      })),
    );
    this.merchants = new PhraseMatcher(
      (options.merchants ?? MERCHANTS).map((entry) => ({
        value: entry,
        phrases: [...(entry.aliases_only ? [] : [entry.chain]), ...(entry.aliases ?? [])],
        notWith: entry.not_with ?? [],
      })),
    );
  }

  /**
   * The brand named in an item description, and the brand's owner, or null when none is known.
   * @param description - a receipt line, e.g. `COCA-C0LA 1.5L` or `HNZ KETCHUP 460G`
   */
  brandFor(description: string): BrandMatch | null {
    const found = this.brands.match(description);
    return found ? { brand: found.value.brand, owning_corporation: found.value.owning_corporation } : null;
  }

  /**
   * The group owning the store chain in a merchant name, or null when the chain is not known.
   * @param merchantName - as printed, e.g. `TESCO STORES LTD` or `WAL-MART SUPERCENTER #1234`
   */
  corporationForMerchant(merchantName: string): string | null {
    return this.merchants.match(merchantName)?.value.owning_corporation ?? null;
  }

  /** The store chain named in a merchant name, with its owner and source, or null. */
  chainFor(merchantName: string): MerchantEntry | null {
    return this.merchants.match(merchantName)?.value ?? null;
  }

  /** The dataset entry of the brand named in a description (with its source and notes), or null. */
  brandEntryFor(description: string): BrandEntry | null {
    return this.brands.match(description)?.value ?? null;
  }
}
