/**
 * Reads names that a receipt printed shortened, as shops' till systems cut article names to fit a
 * column (see README.md, "Abbreviations"): a name of several words whose last word is printed whole
 * and the earlier ones cut to their first letters (`TH.HENRY TONIC` → Thomas Henry, `MI SEDAAP MI
 * GORENG` → Mie Sedaap, `LEERD CARACTERE` → Leerdammer's Caractère). Each earlier word keeps at
 * least two letters, the last word has at least four, and the reading must stand for one name only. Such a reading is weak by nature, so the
 * enricher marks it unsure.
 *
 * A cut first word alone (`LEERD` for Leerdammer) is not read: ordinary words are the first letters
 * of names too often (`CARD` of Cardhu, `COTTON` of Cottonelle, `LUNCH` of Lunchables).
 */
import { normalizeText, phraseKey, withUmlautsSpelt } from './phrase-matcher';

/** Fewest letters of an earlier word cut short (`TH` for `THOMAS`). */
const MIN_INITIAL = 2;
/** Shortest last word printed whole after earlier words cut short. */
const MIN_LAST_WORD = 4;

export interface AbbreviationEntry<T> {
  value: T;
  /** The names that may be read shortened (the brand's name and its aliases). */
  phrases: readonly string[];
}

const wordsOf = (text: string) =>
  normalizeText(text)
    .split(' ')
    .filter((w) => w !== '');

export class AbbreviationReader<T> {
  /** Names of several words, by their last word. */
  private readonly byLastWord = new Map<string, Array<{ value: T; words: string[] }>>();

  constructor(entries: Iterable<AbbreviationEntry<T>>) {
    for (const { value, phrases } of entries) {
      // With umlauts spelt out too: `MILR FRUEHL QUARK` is Milram's Frühlings Quark cut short.
      for (const phrase of phrases.flatMap(withUmlautsSpelt)) {
        const words = wordsOf(phrase);
        const last = words[words.length - 1];
        if (words.length < 2 || !words.every((w) => /^[A-Z]+$/.test(w)) || last!.length < MIN_LAST_WORD)
          continue;
        const list = this.byLastWord.get(last!) ?? [];
        list.push({ value, words });
        this.byLastWord.set(last!, list);
      }
    }
  }

  /**
   * The one name a shortened reading of `text` can stand for, or null (none, or more than one).
   * @param accept - when given, only entries it accepts count
   */
  read(text: string, accept?: (value: T) => boolean): T | null {
    const tokens = wordsOf(text);
    const found = new Set<T>();
    for (let i = 1; i < tokens.length; i++) {
      for (const { value, words } of this.byLastWord.get(tokens[i]!) ?? []) {
        const start = i - (words.length - 1);
        if (start < 0 || (accept !== undefined && !accept(value))) continue;
        if (words.slice(0, -1).every((w, j) => cutOf(tokens[start + j]!, w))) found.add(value);
      }
    }
    return found.size === 1 ? [...found][0]! : null;
  }
}

/** Whether `token` is `word` cut short to at least MIN_INITIAL letters. */
function cutOf(token: string, word: string): boolean {
  return token.length >= MIN_INITIAL && token.length < word.length && word.startsWith(token);
}

/**
 * The initials of a name of several words, `&` kept where the name has it (`gut & günstig` →
 * `G&G`, `real Quality` → `RQ`), or null for a name of one word.
 */
export function initialsOf(name: string): string | null {
  const words = wordsOf(name)
    .flatMap((w) => w.split(/(&)/))
    .filter((w) => w !== '');
  const letters = words.filter((w) => w !== '&');
  if (letters.length < 2 || letters.some((w) => !/^[A-Z]/.test(w))) return null;
  return phraseKey(words.map((w) => (w === '&' ? '&' : w[0]!)).join(''));
}
