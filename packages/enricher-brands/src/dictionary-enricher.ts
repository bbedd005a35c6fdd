import {
  brandOwnerIn,
  type BrandContext,
  type BrandMatch,
  type ChainLookup,
  type Enricher,
  type KnownChain,
} from '@receipts/core';
import { BRANDS, MERCHANTS, type BrandEntry, type MerchantEntry } from './dataset';
import { AbbreviationReader, initialsOf } from './abbreviations';
import { PhraseMatcher, phraseKey as phraseKeyOf } from './phrase-matcher';

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
  private readonly shortened: AbbreviationReader<BrandEntry>;
  private readonly merchants: PhraseMatcher<MerchantEntry>;
  private readonly byName = new Map<string, BrandEntry>();

  constructor(options: DictionaryEnricherOptions = {}) {
    for (const entry of options.brands ?? BRANDS) this.byName.set(entry.brand, entry);
    const brands = options.brands ?? BRANDS;
    const phrasesOf = (entry: BrandEntry) => [
      ...(entry.aliases_only ? [] : [entry.brand]),
      ...(entry.aliases ?? []),
    ];
    this.brands = new PhraseMatcher([
      ...brands.map((entry) => ({ value: entry, phrases: phrasesOf(entry), notWith: entry.not_with ?? [] })),
      // A retailer's own label of several words, by its initials, on that retailer's receipts only.
      ...brands.flatMap((entry) => {
        const initials = entry.only_at?.length ? initialsOf(entry.brand) : null;
        return initials
          ? [{ value: { ...entry, needs_shop: true }, phrases: [initials], notWith: entry.not_with ?? [] }]
          : [];
      }),
    ]);
    this.shortened = new AbbreviationReader(
      brands.map((entry) => ({ value: entry, phrases: phrasesOf(entry) })),
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
   * @param context - the merchant's name as read and the receipt's country, when known (a brand
   *   owned by others in some countries gets the owner of the receipt's country)
   */
  brandFor(description: string, context: BrandContext = {}): BrandMatch | null {
    const shop = context.merchant ? this.chainFor(context.merchant) : null;
    const soldHere = (entry: BrandEntry) => shop !== null && (entry.only_at ?? []).includes(shop.chain);
    const accept = (entry: BrandEntry) => !entry.needs_shop || soldHere(entry);
    const found = this.brands.match(description, accept);
    const entry = found?.value ?? this.shortened.read(description, accept);
    if (entry) {
      const here = soldHere(entry);
      const elsewhere = !here && shop !== null && (entry.only_at ?? []).length > 0;
      return {
        brand: entry.brand,
        owning_corporation: here && shop ? shop.owning_corporation : brandOwnerIn(entry, context.country),
        ...(found?.kind !== 'exact' || elsewhere ? { unsure: true } : {}),
      };
    }
    return this.ownBrandOf(shop, context);
  }

  /**
   * The brand of a shop that sells nothing else: a chain whose goods all carry its own brand
   * (`own_brand`, IKEA), or a maker selling its own products, whose name starts with its brand's
   * own name, read exactly (`GARDENIA BAKERIES (KL) SDN BHD`), and which is no chain: the latter is
   * marked unsure.
   */
  private ownBrandOf(shop: MerchantEntry | null, context: BrandContext): BrandMatch | null {
    const merchant = context.merchant;
    if (shop?.own_brand) {
      const entry = this.byName.get(shop.own_brand);
      return entry ? { brand: entry.brand, owning_corporation: brandOwnerIn(entry, context.country) } : null;
    }
    if (shop || !merchant) return null;
    const maker = this.brands.match(merchant, (entry) => !entry.needs_shop && !entry.only_at);
    if (!maker || maker.kind !== 'exact' || !startsWithName(merchant, maker.phrase)) return null;
    const entry = maker.value;
    // The brand's own name, not a short alias that is also a word of shop names (`Tiger` of Tiger Beer).
    if (!phraseKeyOf(maker.phrase).startsWith(phraseKeyOf(entry.brand))) return null;
    return { brand: entry.brand, owning_corporation: brandOwnerIn(entry, context.country), unsure: true };
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

/** Whether a merchant's name starts with a name (its first words are the name's). */
function startsWithName(merchant: string, name: string): boolean {
  return phraseKeyOf(merchant).startsWith(phraseKeyOf(name));
}
