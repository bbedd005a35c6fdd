import type { ChainLookup, KnownChain } from '../ports';
import { LEGAL_ENTITY_RE } from './merchant-name';

/**
 * The shop a receipt comes from, read from the whole receipt rather than from its first line: many
 * shops print their name as a logo that OCR cannot read, and name themselves again in their web
 * address, in the company line of the footer (`Aldi GmbH & Co. KG`) or letter-spaced (`A L D I`).
 * A known chain named there is evidence; a street, a slogan, a greeting, a cashier or an item line
 * is not (an item line carries a price, and a chain named inside a line of other words counts only
 * with a legal form after it). Pure functions; the chains come from a {@link ChainLookup}.
 */

/** A chain found on a receipt, how strongly, and the line that named it best. */
export interface ChainEvidence {
  chain: KnownChain;
  /** Sum of the evidence of every line naming the chain (see {@link findChainEvidence}). */
  score: number;
  /** Index of the line that named it best. */
  line: number;
}

/** The least evidence that names the shop: one header or footer line, or a web address and a mention. */
export const MIN_CHAIN_EVIDENCE = 2;

/** How many lines at the top and at the foot a shop prints its name on (logo, footer). */
const EDGE_LINES = 10;

/** A money amount (`1,99`, `24.23`): the line is an item, a total or a payment, never the shop. */
const AMOUNT_RE = /\d[.,]\s?\d{2}(?![\d%])/;

/**
 * A legal form in an upper-cased line, wider than the name reader's {@link LEGAL_ENTITY_RE}: German
 * `KG`, `OHG`, `SE`, `E.K.`, Indonesian `PT`/`TBK`, Nordic `AB`, `AS`, `OY`, Italian `SPA`.
 */
const LEGAL_FORM_RE = new RegExp(
  String.raw`${LEGAL_ENTITY_RE.source}|\bKG\b|\bOHG\b|\bSE\b|\bE\.\s?K\.|\bPT\b|\bTBK\b|\bAB\b|\bAS\b|\bOY\b|\bS\.?P\.?A\b|\bSAS\b`,
);

/** Top-level domains of web and e-mail addresses printed on receipts. */
const HOST_RE =
  /(?:^|[\s@/(:])(?:https?:\/\/)?(?:w{2,3}\d?\s?[.,]\s?)?((?:[\p{L}\p{N}-]+\s?\.\s?)+)(?:de|com|net|org|eu|at|ch|nl|be|fr|it|es|uk|my|sg|id|au|us|ca|ie|pl|dk|se|no|fi|info|shop|store)(?![\p{L}\p{N}])/giu;

/** Letters and digits of a text, for comparing how much of a line a name fills. */
const size = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '').length;

/** Runs of single letters with a space between them (`A L D I`) read as the word they spell. */
export function joinSpacedLetters(text: string): string {
  return text.replace(/(?<!\S)(?:\p{L}\s){2,}\p{L}(?!\S)/gu, (run) => run.replace(/\s/g, ''));
}

/** The names in the web and e-mail addresses of a line: `www.marktkauf-lehr.de` gives `marktkauf lehr`. */
export function hostNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(HOST_RE)) {
    const labels = m[1]!.split(/\s?\.\s?/).filter((label) => label !== '' && !/^w{2,3}\d?$/i.test(label));
    if (labels.length > 0) names.push(labels.join(' ').replace(/-/g, ' '));
  }
  return names;
}

/**
 * How strongly one line names a chain, 0 when it does not:
 * - a web or e-mail address naming it: 2;
 * - a company line, the chain's name first and a legal form after it (`toom Baumarkt GmbH`,
 *   `Aldi GmbH & Co. KG, Schloß Holte`): 3;
 * - a line that is the chain's name (it fills at least 60 % of the line's letters, or 40 % when the
 *   line starts with it, as `Marktkauf Lehr`): 3 among the first or last lines, else 1.
 * Lines with an amount are items, totals and payments; a name in brackets is a location
 * (`(TESCO EXTRA ARA DAMANSARA)` under a shop inside that store).
 */
function lineEvidence(
  text: string,
  lookup: ChainLookup,
  atEdge: boolean,
): { chain: KnownChain; weight: number } | null {
  let best: { chain: KnownChain; weight: number } | null = null;
  const consider = (chain: KnownChain, weight: number) => {
    if (!best || weight > best.weight) best = { chain, weight };
  };
  for (const host of hostNames(text)) {
    const found = lookup.chainIn(host);
    if (found) consider(found.chain, 2);
  }
  if (AMOUNT_RE.test(text)) return best;
  const plain = joinSpacedLetters(text.replace(/\([^)]*\)?/g, ' ')).trim();
  if (size(plain) < 2) return best;
  const found = lookup.chainIn(plain);
  if (!found) return best;
  const upper = plain.toUpperCase();
  const legal = LEGAL_FORM_RE.exec(upper);
  const phrase = size(found.phrase);
  const startsWithIt =
    plain
      .replace(/[^\p{L}\p{N}]/gu, '')
      .toUpperCase()
      .slice(0, phrase) === found.phrase.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
  if (legal && legal.index > 0 && startsWithIt) consider(found.chain, 3);
  const share = phrase / size(plain);
  if (share >= 0.6 || (startsWithIt && share >= 0.4)) consider(found.chain, atEdge ? 3 : 1);
  return best;
}

/**
 * The known chain a receipt names most strongly, from every line (see `lineEvidence` for the weight of
 * one line), or null when no chain has {@link MIN_CHAIN_EVIDENCE}. Each line counts once.
 * @param lines - the receipt's text lines, top to bottom
 */
export function findChainEvidence(lines: readonly string[], lookup: ChainLookup): ChainEvidence | null {
  const byChain = new Map<string, ChainEvidence & { best: number }>();
  lines.forEach((text, at) => {
    const atEdge = at < EDGE_LINES || at >= lines.length - EDGE_LINES;
    const found = lineEvidence(text, lookup, atEdge);
    if (!found) return;
    const seen = byChain.get(found.chain.chain);
    if (!seen)
      byChain.set(found.chain.chain, {
        chain: found.chain,
        score: found.weight,
        line: at,
        best: found.weight,
      });
    else {
      seen.score += found.weight;
      if (found.weight > seen.best) Object.assign(seen, { line: at, best: found.weight });
    }
  });
  let winner: (ChainEvidence & { best: number }) | null = null;
  for (const e of byChain.values()) if (!winner || e.score > winner.score) winner = e;
  if (!winner || winner.score < MIN_CHAIN_EVIDENCE) return null;
  return { chain: winner.chain, score: winner.score, line: winner.line };
}

/** The merchant a recognised chain gives: its name as the receipt should show it, owner and category. */
export interface ChainMerchant {
  name: string;
  owning_corporation: string;
  category: string;
}

/**
 * The merchant of a receipt on which `evidence` found a chain, given the name read from its heading.
 * A heading that names the chain is kept as printed, with the trading company or the branch the shop
 * prints (`99 SPEED MART S/B`, `DOMINO'S PIZZA TAMAN UNIVERSITI`), and gets the chain's owner and
 * category. A heading that is another company (a legal form) stays the merchant and the chain is not
 * applied (a franchisee printing the brand it sells under, a shop inside a store). Otherwise the
 * heading was a logo, an address or a slogan, and the chain's own name replaces it.
 * @returns null when the chain does not apply
 */
export function merchantOfChain(
  headingName: string | null,
  evidence: ChainEvidence,
  lookup: ChainLookup,
): ChainMerchant | null {
  const { chain } = evidence;
  const company = headingName !== null && LEGAL_FORM_RE.test(headingName.toUpperCase());
  const named = headingName !== null && lookup.chainIn(headingName)?.chain.chain === chain.chain;
  if (company && !named) return null;
  return {
    name: named ? headingName : chain.chain,
    owning_corporation: chain.owning_corporation,
    category: chain.category,
  };
}
