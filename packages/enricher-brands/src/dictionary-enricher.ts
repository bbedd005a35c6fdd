import type { BrandContext, BrandMatch, ChainLookup, Enricher, KnownChain } from '@receipts/core';
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
export class DictionaryEnricher implements Enricher, ChainLookup {
  private readonly brands: PhraseMatcher<BrandEntry>;
  private readonly merchants: PhraseMatcher<MerchantEntry>;
  private readonly byName = new Map<string, BrandEntry>();

  constructor(options: DictionaryEnricherOptions = {}) {
    for (const entry of options.brands ?? BRANDS) this.byName.set(entry.brand, entry);
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
   *
   * With the merchant's name, a retailer's own label counts at that retailer: a label that is a
   * common word (`ja!`, `Deluxe`) matches only on that retailer's receipt, and a label shared by two
   * groups' chains (Aldi Nord and Aldi Süd) is owned by the group of the shop. The match is `unsure`
   * when it needed OCR confusions forgiven or words run together, or when a retailer's own label is
   * read on another chain's receipt.
   * @param description - a receipt line, e.g. `COCA-C0LA 1.5L` or `HNZ KETCHUP 460G`
   * @param context - the merchant's name as read, when known
   */
  brandFor(description: string, context: BrandContext = {}): BrandMatch | null {
    const shop = context.merchant ? this.chainFor(context.merchant) : null;
    const soldHere = (entry: BrandEntry) => shop !== null && (entry.only_at ?? []).includes(shop.chain);
    const found = this.brands.match(description, (entry) => !entry.needs_shop || soldHere(entry));
    if (!found) return null;
    const entry = found.value;
    const here = soldHere(entry);
    const elsewhere = !here && shop !== null && (entry.only_at ?? []).length > 0;
    return {
      brand: entry.brand,
      owning_corporation: here && shop ? shop.owning_corporation : entry.owning_corporation,
      ...(found.kind !== 'exact' || elsewhere ? { unsure: true } : {}),
    };
  }

  /**
   * The group owning the store chain in a merchant name, or null when the chain is not known.
   * @param merchantName - as printed, e.g. `TESCO STORES LTD` or `WAL-MART SUPERCENTER #1234`
   */
  corporationForMerchant(merchantName: string): string | null {
    return this.merchants.match(merchantName)?.value.owning_corporation ?? null;
  }

  /**
   * The store chain named in a piece of receipt text and the phrase found (the analyzers' chain
   * knowledge: `composition` hands this enricher to them as their `ChainLookup`), or null.
   * @param text - a receipt line or the words of a web address, e.g. `Aldi GmbH & Co. KG`
   */
  chainIn(text: string): { chain: KnownChain; phrase: string } | null {
    const found = this.merchants.match(text);
    if (!found) return null;
    const { chain, owning_corporation, category } = found.value;
    return { chain: { chain, owning_corporation, category }, phrase: found.phrase };
  }

  /** The store chain named in a merchant name, with its owner and source, or null. */
  chainFor(merchantName: string): MerchantEntry | null {
    return this.merchants.match(merchantName)?.value ?? null;
  }

  /** The dataset entry of the brand named in a description (with its source and notes), or null. */
  brandEntryFor(description: string, context: BrandContext = {}): BrandEntry | null {
    const brand = this.brandFor(description, context);
    return brand ? (this.byName.get(brand.brand) ?? null) : null;
  }
}
