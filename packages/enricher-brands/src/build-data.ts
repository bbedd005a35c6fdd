import { CHAIN_CATEGORIES } from './dataset';
import { foldOcr, phraseKey } from './phrase-matcher';

/**
 * The brands dataset is written as several source files (`data/sources/*.json`, one per market or
 * kind of product) and built into the one `data/brands.json` the enricher reads. A source file has the
 * shape of brands.json, except that a brand may be written as a plain string when it has nothing but
 * its name. The build checks the whole dataset (brands and store chains together) and refuses to write
 * it while a problem remains: see {@link checkDataset}.
 */

/** A brand or chain entry as written in a data file. */
export interface SourceEntry {
  brand?: string;
  chain?: string;
  aliases?: string[];
  not_with?: string[];
  aliases_only?: boolean;
  /** Chains (as named in merchants.json) where the brand is the retailer's own label. */
  only_at?: string[];
  /** The name is a common word: match it only on a receipt of one of the `only_at` chains. */
  needs_shop?: boolean;
  /** A chain's receipt category: `grocery`, `restaurant`, `retail`, `fuel` or `pharmacy`. */
  category?: string;
  /** A chain's own brand, carried by everything it sells: a brand of brands.json. */
  own_brand?: string;
  /** Countries (ISO 3166-1 alpha-2) where another corporation owns the brand, and that owner. */
  owners_by_country?: Record<string, string>;
  source?: string;
  note?: string;
}

export interface SourceGroup {
  owning_corporation: string;
  source: string;
  brands?: Array<string | SourceEntry>;
  chains?: SourceEntry[];
}

export interface SourceFile {
  title?: string;
  description?: string;
  groups: SourceGroup[];
}

/** Legal forms and filler words that do not make two owners different ("Tesco" and "Tesco PLC"). */
const LEGAL_WORDS = new Set(
  [
    'INC',
    'INCORPORATED',
    'LTD',
    'LIMITED',
    'PLC',
    'CO',
    'COMPANY',
    'CORP',
    'CORPORATION',
    'GROUP',
    'GRUPPE',
    'GROUPE',
    'GRUPO',
    'HOLDINGS',
    'HOLDING',
    'AG',
    'SE',
    'GMBH',
    'KG',
    'NV',
    'SA',
    'SPA',
    'BHD',
    'SDN',
    'TBK',
    'PT',
    'THE',
    'AB',
    'ASA',
    'LLC',
    'LP',
  ].map((w) => w),
);

/** The owner's name without legal forms, for telling two spellings of one owner apart. */
export function ownerKey(owner: string): string {
  return owner
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/['’.]/g, '')
    .split(/[^A-Z0-9&]+/)
    .filter((w) => w !== '' && !LEGAL_WORDS.has(w))
    .join(' ');
}

/** Turns source files into the one brands file: plain-string brands become `{ brand }` entries. */
export function buildBrands(files: ReadonlyArray<{ name: string; data: SourceFile }>): SourceFile {
  const groups: SourceGroup[] = [];
  for (const { data } of files) {
    for (const group of data.groups) {
      groups.push({
        ...group,
        brands: (group.brands ?? []).map((b) => (typeof b === 'string' ? { brand: b } : b)),
      });
    }
  }
  return {
    title: 'Brands and their owning corporations',
    description:
      'Built by `npm run brands:build` from data/sources/*.json; edit those, not this file. Brands grouped by the corporation that owns them, each group with the source of its facts. See README.md.',
    groups,
  };
}

interface Keyed {
  what: string;
  owner: string;
  keys: string[];
}

function keysOf(entry: SourceEntry, name: string): string[] {
  return [...(entry.aliases_only ? [] : [name]), ...(entry.aliases ?? [])]
    .map(phraseKey)
    .filter((k) => k !== '');
}

type Flat = SourceEntry & { owner: string; name: string; groupSource: string };

function entriesOf(file: SourceFile, list: 'brands' | 'chains'): Flat[] {
  const out: Flat[] = [];
  for (const group of file.groups) {
    for (const raw of group[list] ?? []) {
      const entry: SourceEntry = typeof raw === 'string' ? { brand: raw } : raw;
      out.push({
        ...entry,
        owner: group.owning_corporation,
        name: (list === 'brands' ? entry.brand : entry.chain) ?? '',
        groupSource: group.source,
      });
    }
  }
  return out;
}

/** A key (name or alias, or its OCR-folded form) must not stand for two owners. */
function clashes(entries: Keyed[], fold: boolean): string[] {
  const owners = new Map<string, Keyed>();
  const problems: string[] = [];
  for (const entry of entries) {
    for (const key of entry.keys) {
      for (const k of fold && key.length >= 4 ? [key, `~${foldOcr(key)}`] : [key]) {
        const seen = owners.get(k);
        if (seen !== undefined && seen.owner !== entry.owner)
          problems.push(`"${k}" is both ${seen.what} (${seen.owner}) and ${entry.what} (${entry.owner})`);
        if (seen === undefined) owners.set(k, entry);
      }
    }
  }
  return problems;
}

/**
 * Everything wrong with a dataset, as sentences; empty when it may ship.
 * - every group and every entry has an owner and a source that names where it is published;
 * - no brand is listed twice, and no name or alias (even with OCR confusions forgiven) stands for two
 *   owners; the same for chains;
 * - every owner is spelled one way across both files (`Tesco PLC` everywhere, never `Tesco Plc`);
 * - a retailer's own label (`only_at`) names chains that merchants.json knows, one of them owned by the brand's
 *   owner;
 * - no key is so short that it would be found in ordinary words;
 * - every chain has a receipt category, and a chain's own brand (`own_brand`) is a brand of the list;
 * - a brand owned by others in some countries (`owners_by_country`) names them by ISO country code,
 *   each other than the brand's owner, and has a source of its own that says so.
 */
export function checkDataset(brands: SourceFile, merchants: SourceFile): string[] {
  const problems: string[] = [];
  for (const [file, data, list] of [
    ['brands', brands, 'brands'],
    ['merchants', merchants, 'chains'],
  ] as const) {
    for (const group of data.groups) {
      if ((group[list] ?? []).length === 0)
        problems.push(`${file}: the group of ${group.owning_corporation} lists nothing`);
    }
  }
  const brandEntries = entriesOf(brands, 'brands');
  const chainEntries = entriesOf(merchants, 'chains');

  for (const [file, entries] of [
    ['brands', brandEntries],
    ['merchants', chainEntries],
  ] as const) {
    for (const e of entries) {
      if (e.name.trim() === '') problems.push(`${file}: an entry of ${e.owner} has no name`);
      if (e.owner.trim() === '') problems.push(`${file}: ${e.name} has no owner`);
      if (!/\w+\.\w+/.test(e.source ?? e.groupSource))
        problems.push(`${file}: ${e.name} (${e.owner}) names no source (a site or a publication)`);
      for (const key of keysOf(e, e.name)) {
        if (key.length < (e.needs_shop ? 2 : 3) && !/\d/.test(key))
          problems.push(`${file}: ${e.name} has a key too short to be safe: ${key}`);
      }
    }
  }

  for (const e of chainEntries) {
    if (!(CHAIN_CATEGORIES as readonly string[]).includes(e.category ?? ''))
      problems.push(`merchants: ${e.name} needs a category, one of ${CHAIN_CATEGORIES.join(', ')}`);
    if (e.own_brand !== undefined && !brandEntries.some((b) => b.name === e.own_brand))
      problems.push(
        `merchants: ${e.name} sells its own brand ${e.own_brand}, which brands.json does not list`,
      );
  }

  const seenBrands = new Map<string, string>();
  for (const e of brandEntries) {
    const key = phraseKey(e.name);
    const seen = seenBrands.get(key);
    if (seen !== undefined) problems.push(`brands: ${e.name} is listed twice (${seen} and ${e.owner})`);
    else seenBrands.set(key, e.owner);
  }
  const toKeyed = (what: string) => (e: { name: string; owner: string } & SourceEntry) => ({
    what: `${what} ${e.name}`,
    owner: e.owner,
    keys: keysOf(e, e.name),
  });
  problems.push(...clashes(brandEntries.map(toKeyed('brand')), true));
  problems.push(...clashes(chainEntries.map(toKeyed('chain')), false));

  for (const e of brandEntries) {
    const others = Object.entries(e.owners_by_country ?? {});
    if (e.owners_by_country && others.length === 0)
      problems.push(`brands: ${e.name} lists no country in owners_by_country`);
    if (others.length > 0 && e.source === undefined)
      problems.push(`brands: ${e.name} is owned by others in some countries but names no source of its own`);
    for (const [country, owner] of others) {
      if (!/^[A-Z]{2}$/.test(country))
        problems.push(`brands: ${e.name} names a country that is no ISO code: ${country}`);
      if (ownerKey(owner) === ownerKey(e.owner))
        problems.push(`brands: ${e.name} is owned by ${owner} in ${country}, the owner it has anyway`);
    }
  }

  const spellings = new Map<string, Set<string>>();
  const owners = [...brandEntries, ...chainEntries].flatMap((e) => [
    e.owner,
    ...Object.values(e.owners_by_country ?? {}),
  ]);
  for (const owner of owners) {
    const key = ownerKey(owner);
    const set = spellings.get(key) ?? new Set<string>();
    set.add(owner);
    spellings.set(key, set);
  }
  for (const set of spellings.values()) {
    if (set.size > 1) problems.push(`one owner is spelled ${[...set].map((s) => `"${s}"`).join(' and ')}`);
  }

  const chains = new Map(chainEntries.map((c) => [c.name, c.owner]));
  for (const e of brandEntries) {
    const at = e.only_at ?? [];
    for (const chain of at) {
      if (!chains.has(chain))
        problems.push(`brands: ${e.name} is sold only at ${chain}, a chain merchants.json does not list`);
    }
    if (at.length > 0 && at.every((c) => chains.has(c)) && !at.some((c) => chains.get(c) === e.owner))
      problems.push(
        `brands: ${e.name} belongs to ${e.owner}, who owns none of the chains it is sold at (${at.join(', ')})`,
      );
    if (e.needs_shop && at.length === 0)
      problems.push(`brands: ${e.name} needs a shop but names none (only_at)`);
  }
  return problems;
}
