import type { AnalysisResult, AnalyzedItem } from './analysis';
import type { CorrectionRule } from './contract/corrections';
import { normaliseName, shortHash, UNKNOWN_MERCHANT } from './repository/keys';

/*
 * A person's corrections as rules, and how they apply to an analysis: the normalised keys that tell
 * "the same item text at the same shop" and "the same merchant spelling", and the pure function the
 * scan worker runs. The rules are stored in repository/correction-rules.ts.
 */

/** Longest normalised key kept (row keys of both table stores stay well within their limits). */
const MAX_KEY_LENGTH = 200;
/** A rule pointing to a name another rule maps further is followed this many times at most. */
const MAX_HOPS = 4;

/**
 * Text reduced to what tells two printings of it apart: accents, case, punctuation and spaces
 * dropped (receipts run words together or split them), and long digit runs (article numbers and
 * barcodes, which a shop may print beside the text or not) left out. Text of no Latin letters or
 * digits (e.g. Chinese) is keyed by a hash of itself. Empty for blank text.
 */
export function correctionKey(text: string | null | undefined): string {
  const raw = (text ?? '').trim();
  if (raw === '') return '';
  const words = normaliseName(raw)
    .split(' ')
    .filter((word) => !/^\d{6,}$/.test(word));
  const key = words.join('');
  if (key !== '') return key.slice(0, MAX_KEY_LENGTH);
  return `x${shortHash(raw.normalize('NFKC').toLowerCase().replace(/\s+/g, ''))}`;
}

/** The key of a shop's name for rules, or '' when the merchant was not read. */
export function shopKey(name: string | null | undefined): string {
  if (!name || normaliseName(name) === normaliseName(UNKNOWN_MERCHANT)) return '';
  return correctionKey(name);
}

/** The row key (and API id) of an item rule: the shop's key and the item text's key. */
export const itemRuleId = (shop: string, text: string): string => `item~${shop}~${text}`;
/** The row key (and API id) of a merchant rule: the key of the spelling it corrects. */
export const merchantRuleId = (name: string): string => `merchant~${name}`;

/** What an item rule sets. */
interface ItemFix {
  setsBrand: boolean;
  brand: string | null;
  owner: string | null;
  description: string | null;
}

/** A person's rules, indexed for applying them to analyses. */
export class Corrections {
  /** Merchant rules by the key of the spelling they correct. */
  private readonly merchants = new Map<string, CorrectionRule>();
  /** Item rules by shop key and text key. */
  private readonly itemsAtShop = new Map<string, CorrectionRule>();
  /** Item rules by chain key and text key; of two shops of a chain, the rule set last wins. */
  private readonly itemsOfChain = new Map<string, CorrectionRule>();

  constructor(readonly rules: readonly CorrectionRule[]) {
    const newestLast = [...rules].sort((a, b) => a.updated_at.localeCompare(b.updated_at));
    for (const rule of newestLast) {
      if (rule.kind === 'merchant') {
        this.merchants.set(correctionKey(rule.text), rule);
        continue;
      }
      const text = correctionKey(rule.text);
      this.itemsAtShop.set(`${shopKey(rule.shop)}~${text}`, rule);
      const chain = correctionKey(rule.chain);
      if (chain) this.itemsOfChain.set(`${chain}~${text}`, rule);
    }
  }

  get size(): number {
    return this.rules.length;
  }

  /** The name a merchant read as `name` has by the person's rules, or null when none applies. */
  merchantName(name: string | null | undefined): string | null {
    let current = name ?? '';
    const seen = new Set<string>();
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const key = correctionKey(current);
      if (!key || seen.has(key)) break;
      seen.add(key);
      const rule = this.merchants.get(key);
      if (!rule?.merchant_name) break;
      current = rule.merchant_name;
    }
    return current !== (name ?? '') && correctionKey(current) !== correctionKey(name) ? current : null;
  }

  /**
   * What the rules set for an item printed `text` at `shop` (owned by `chain`): a rule of that shop,
   * else one of another shop of the same chain. A rule whose description another rule corrects
   * further is followed.
   */
  itemFix(text: string, shop: string | null, chain: string | null): ItemFix | null {
    const at = shopKey(shop);
    const group = correctionKey(chain);
    let fix = null as ItemFix | null;
    let current = text;
    const seen = new Set<string>();
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const key = correctionKey(current);
      if (!key || seen.has(key)) break;
      seen.add(key);
      const rule =
        (at ? this.itemsAtShop.get(`${at}~${key}`) : undefined) ??
        (group ? this.itemsOfChain.get(`${group}~${key}`) : undefined);
      if (!rule) break;
      fix = {
        setsBrand: rule.sets_brand || (fix?.setsBrand ?? false),
        brand: rule.sets_brand ? rule.brand : (fix?.brand ?? null),
        owner: rule.sets_brand ? rule.owner : (fix?.owner ?? null),
        description: rule.description ?? fix?.description ?? null,
      };
      if (!rule.description) break;
      current = rule.description;
    }
    return fix;
  }
}

/**
 * The analysis with the merchant name the person's rules give it, marked `from_corrections`.
 * Runs before the brand enrichment, so the corrected shop is the context of its brands and owner.
 */
export function correctMerchant(result: AnalysisResult, corrections: Corrections): AnalysisResult {
  const name = corrections.merchantName(result.merchant.name);
  if (name === null) return result;
  return { ...result, merchant: { ...result.merchant, name, from_corrections: true } };
}

/**
 * The analysis with the brands and descriptions the person's rules give its items (the same text at
 * the same shop or chain), each changed item marked `from_corrections`. Runs after the enrichment:
 * the person's word counts over the dataset's.
 */
export function correctItems(result: AnalysisResult, corrections: Corrections): AnalysisResult {
  if (corrections.size === 0) return result;
  const shop = result.merchant.name;
  const chain = result.merchant.owning_corporation ?? null;
  let changed = false;
  const items = result.items.map((item): AnalyzedItem => {
    const fix = corrections.itemFix(item.description, shop, chain);
    if (!fix) return item;
    const next: AnalyzedItem = { ...item };
    if (fix.description) next.description = fix.description;
    if (fix.setsBrand) {
      delete next.brand_unsure;
      next.brand = fix.brand;
      next.owning_corporation = fix.brand ? fix.owner : null;
    }
    const same =
      next.description === item.description &&
      (next.brand ?? null) === (item.brand ?? null) &&
      (next.owning_corporation ?? null) === (item.owning_corporation ?? null);
    if (same && !item.brand_unsure) return item;
    changed = true;
    return { ...next, from_corrections: true };
  });
  return changed ? { ...result, items } : result;
}
