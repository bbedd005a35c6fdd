import { tidyMerchantName, type ChainLookup } from '@receipts/core';
import type { CharDoubt } from './paddle-ocr';
import { cleanLine, type ReceiptLine } from './receipt-lines';

/**
 * The letters of a receipt's heading that the OCR engine was unsure of, settled by the names a
 * heading is made of. PaddleOCR keeps, for each character it read below 0.98, the character it found
 * next likeliest (`doubts`; `_` when that was no character at all). Where a doubted character's
 * runner-up makes the heading a known chain's name, or a word shop names are made of, the runner-up
 * is what was printed: `99 SFEED MART` with `P` as the runner-up of its `F` is 99 SPEED MART, the
 * space of `Guar dian` that was nearly no character is GUARDIAN, `CARE` with `K` nearly as likely
 * as its `R` is CAKE in `BERRY'S CARE HOUSE`. A letter the engine left out between the dots of
 * initials (`MR. D.I..`) is the one that makes a known chain's name (MR. D.I.Y.). One character is
 * changed at most, per line; the receipt's other fields are read from the lines as read.
 */

/** How many lines from the top are the heading (as the name reader's window). */
const HEADING_LINES = 8;

/** Doubts below this probability may be settled by a known name. */
const DOUBTED = 0.9;
/**
 * A space doubted below this probability, with no character as its runner-up, was nearly as likely
 * not printed: only then does a chain's spelling join the words around it.
 */
const DOUBTED_SPACE = 0.6;

/**
 * Words of shop names (what a business is) that a doubted letter may be read as. Words that are
 * common words of another meaning one letter away stay out (`CARE`, `HOME`).
 */
const SHOP_WORDS = new Set([
  'BAKERY',
  'BISTRO',
  'BOOK',
  'BOOKS',
  'CAFE',
  'CAKE',
  'CAKES',
  'FOOD',
  'FOODS',
  'FRESH',
  'HOUSE',
  'KEDAI',
  'MART',
  'MARKET',
  'NOODLE',
  'PHARMACY',
  'PIZZA',
  'RESTORAN',
  'SHOP',
  'STORE',
  'STORES',
  'TRADING',
]);

/** A dotted initial whose letter was not read: the dot after `I.` in `D.I..`. */
const EMPTY_INITIAL = /(?<=(?:^|[\s.])\p{Lu}\.)(?=\.)/gu;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The word (letters and digits) of `text` around position `at`, upper-cased. */
function wordAt(text: string, at: number): string {
  let start = at;
  let end = at;
  while (start > 0 && /[\p{L}\p{N}']/u.test(text[start - 1]!)) start--;
  while (end < text.length && /[\p{L}\p{N}']/u.test(text[end]!)) end++;
  return text.slice(start, end).toUpperCase();
}

/** The words of a text as a chain phrase is compared: upper case, letters and digits. */
const phraseWords = (text: string) =>
  ` ${text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/['’]/g, '')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim()} `;

/**
 * Whether `candidate` (a reading of a heading line with one character changed) names a known name
 * that `read` (the line as read) does not: a chain the line as read does not name, or the chain it
 * names spelt word for word where the reading split or joined its words.
 */
function namesBetter(
  read: string,
  candidate: string,
  chains: ChainLookup | undefined,
  nearTie: boolean,
): boolean {
  if (!chains) return false;
  const before = chains.chainIn(tidyMerchantName(read));
  const after = chains.chainIn(tidyMerchantName(candidate));
  if (!after) return false;
  if (!before) return true;
  if (!nearTie || before.chain.chain !== after.chain.chain) return false;
  const spelt = (text: string) => phraseWords(tidyMerchantName(text)).includes(phraseWords(after.phrase));
  return spelt(candidate) && !spelt(read);
}

/**
 * The line with one doubted character settled by a known name, and whether a chain settled it, or
 * null.
 */
function settleLine(
  raw: string,
  doubts: readonly CharDoubt[],
  chains: ChainLookup | undefined,
): { text: string; chain: boolean } | null {
  const sorted = doubts.filter(([, p]) => p < DOUBTED).sort((a, b) => a[1] - b[1]);
  for (const [at, probability, runnerUp] of sorted) {
    const char = raw[at];
    if (char === undefined) continue;
    const candidate = raw.slice(0, at) + (runnerUp === '_' ? '' : runnerUp) + raw.slice(at + 1);
    const nearTie = char === ' ' && runnerUp === '_' && probability < DOUBTED_SPACE;
    if (namesBetter(raw, candidate, chains, nearTie)) return { text: candidate, chain: true };
    // A shop word, where the letter read makes none.
    if (/\p{L}/u.test(char) && /^\p{L}$/u.test(runnerUp)) {
      const word = wordAt(candidate, at);
      if (SHOP_WORDS.has(word) && !SHOP_WORDS.has(wordAt(raw, at))) return { text: candidate, chain: false };
    }
  }
  if (chains) {
    for (const gap of raw.matchAll(EMPTY_INITIAL)) {
      for (const letter of LETTERS) {
        const candidate = raw.slice(0, gap.index) + letter + raw.slice(gap.index);
        if (namesBetter(raw, candidate, chains, false)) return { text: candidate, chain: true };
      }
    }
  }
  return null;
}

/**
 * The receipt's lines with the heading's doubted letters settled where a known name settles them
 * (see the module comment); the same array when nothing changed.
 * @param lines - the receipt's lines (`toLines`)
 * @param rawLines - the text as the engine read it, by line number (where the doubts' positions are)
 * @param lineDoubts - the engine's doubted characters, by line number
 */
export function settleHeadingLetters(
  lines: ReceiptLine[],
  rawLines: readonly string[],
  lineDoubts: ReadonlyArray<readonly CharDoubt[] | null> | undefined,
  chains: ChainLookup | undefined,
): ReceiptLine[] {
  if (!lineDoubts) return lines;
  let changed: ReceiptLine[] | null = null;
  for (let at = 0; at < Math.min(lines.length, HEADING_LINES); at++) {
    const line = lines[at]!;
    const raw = rawLines[line.index];
    if (raw === undefined) continue;
    const settled = settleLine(raw, lineDoubts[line.index] ?? [], chains);
    if (settled === null) continue;
    // A line a chain settled is the chain's name as a name reads it (`99SPEED NART` is 99SPEED MART):
    // the chain evidence reads it so too.
    const text = cleanLine((settled.chain ? tidyMerchantName(settled.text) : settled.text).normalize('NFKC'));
    changed ??= [...lines];
    changed[at] = { ...line, text, upper: text.toUpperCase() };
  }
  return changed ?? lines;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A heading that names a known chain, with the space the chain's name puts between a number and a
 * word where the reading ran them together (`99SPEED MART S/B` is `99 SPEED MART S/B`, the chain
 * being `99 Speedmart`). Other spaces stay as read.
 */
export function spacedAsChain(name: string, chains: ChainLookup): string {
  const phrase = chains.chainIn(name)?.phrase;
  if (!phrase) return name;
  const words = phrase.split(/[\s-]+/).filter((w) => w !== '');
  let spaced = name;
  for (let i = 0; i + 1 < words.length; i++) {
    const [left, right] = [words[i]!, words[i + 1]!];
    if (!/^\d+$/.test(left) && !/^\d/.test(right)) continue;
    const glued = new RegExp(`(?<![\\p{L}\\p{N}])(${escape(left)})(${escape(right.slice(0, 3))})`, 'iu');
    spaced = spaced.replace(glued, '$1 $2');
  }
  return spaced;
}
