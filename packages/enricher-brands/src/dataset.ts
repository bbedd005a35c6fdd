import { ValidationError } from '@receipts/core';
import brandsData from '../data/brands.json' with { type: 'json' };
import merchantsData from '../data/merchants.json' with { type: 'json' };

/** What brands and store chains of the dataset have alike: owner, matching hints and source. */
export interface OwnedEntry {
  owning_corporation: string;
  /** Other spellings and receipt abbreviations (`COKE`, `HNZ`, `KLGS`). */
  aliases?: string[];
  /** Words that, next to the name, mean a different product (`DOVE` with `CHOC`). */
  not_with?: string[];
  /** Match only the aliases, because the name alone is a common word (`Kinder`, `Simply`). */
  aliases_only?: boolean;
  /** Where the ownership is published. */
  source: string;
  /** A caveat, e.g. another owner in some country. */
  note?: string;
}

/** One brand of the dataset, with its group's owner and source (see README.md). */
export interface BrandEntry extends OwnedEntry {
  brand: string;
  /** A retailer's own label: the chains (as named in merchants.json) that sell it. */
  only_at?: string[];
  /** The name is a common word: it counts only on a receipt of one of the `only_at` chains. */
  needs_shop?: boolean;
  /**
   * Where another corporation owns the brand: country (ISO 3166-1 alpha-2) → owner (7UP is PepsiCo's,
   * but Keurig Dr Pepper's in `US`). The brand's owner holds it everywhere else; on a receipt whose
   * country is not known such a brand has no owner.
   */
  owners_by_country?: Record<string, string>;
}

/** One store chain of the dataset, with its owning group and source. */
export interface MerchantEntry extends OwnedEntry {
  chain: string;
  /** The receipt category its shops sell in (one of {@link CHAIN_CATEGORIES}). */
  category: string;
  /** The brand (as named in brands.json) that everything the chain sells carries, e.g. IKEA. */
  own_brand?: string;
}

/** The receipt categories a chain may have (the app's categories that shops sell in). */
export const CHAIN_CATEGORIES = ['grocery', 'restaurant', 'retail', 'fuel', 'pharmacy'] as const;

interface Group<K extends string> {
  owning_corporation: string;
  source: string;
  entries: Array<Record<K, string> & { source?: string }>;
}

function flatten<K extends string, E>(raw: unknown, list: 'brands' | 'chains', name: K, file: string): E[] {
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as { groups?: unknown }).groups)) {
    throw new ValidationError(`${file} must hold { "groups": [...] }.`);
  }
  const out: E[] = [];
  for (const group of (raw as { groups: Array<Record<string, unknown>> }).groups) {
    const { owning_corporation, source } = group;
    const entries = group[list];
    if (typeof owning_corporation !== 'string' || typeof source !== 'string' || !Array.isArray(entries)) {
      throw new ValidationError(`${file}: every group needs "owning_corporation", "source" and "${list}".`);
    }
    for (const entry of entries as Group<K>['entries']) {
      if (typeof entry[name] !== 'string' || entry[name].trim() === '') {
        throw new ValidationError(`${file}: an entry of ${owning_corporation} has no "${name}".`);
      }
      out.push({ owning_corporation, source, ...entry } as E);
    }
  }
  return out;
}

/** Reads a brands dataset in the format of data/brands.json (groups by owner) into flat entries. */
export function brandEntriesOf(raw: unknown, file = 'brands.json'): BrandEntry[] {
  return flatten<'brand', BrandEntry>(raw, 'brands', 'brand', file);
}

/** Reads a merchants dataset in the format of data/merchants.json into flat entries. */
export function merchantEntriesOf(raw: unknown, file = 'merchants.json'): MerchantEntry[] {
  return flatten<'chain', MerchantEntry>(raw, 'chains', 'chain', file);
}

/** The shipped brands, one entry per brand. */
export const BRANDS: readonly BrandEntry[] = brandEntriesOf(brandsData);
/** The shipped store chains, one entry per chain. */
export const MERCHANTS: readonly MerchantEntry[] = merchantEntriesOf(merchantsData);
