/**
 * Finds known names (brands, store chains) in short, noisy texts such as receipt line descriptions.
 *
 * Rules (see README.md):
 * - Case, accents, apostrophes and punctuation do not matter: `HEINZ`, `Heinz`, `Kellogg's`, `KELLOGGS`;
 *   umlauts may be spelt out as German tills print them (`KOELLN` is Kölln).
 * - A name matches whole words only: `DOVE` is not found in `DOVETAIL`. Letters and digits next to
 *   each other count as separate words, so `COKE1.5L` holds `COKE`.
 * - Spaces and hyphens inside a name may be missing or extra: `COCACOLA`, `COCA COLA`, `COCA-COLA`.
 * - OCR confusions are forgiven in names of four characters or more: 0/O, 1/I/l/L, 5/S, 3/E, 8/B
 *   (`COCA-C0LA`, `HE1NZ`).
 * - A word printed in capitals that runs into a word in small letters is read as two words, as when a
 *   receipt drops the space between a code and a name or a name and the rest (`HHAsahi`, `SELITstop`).
 * - In names of six characters or more, a doubled letter printed once or a letter printed twice is
 *   forgiven (`GUINESS` for Guinness), as an unsure reading.
 * - A name of seven characters or more may run straight into the next word when the receipt dropped
 *   the space (`MRMUSCLEINTANK`); shorter names may not, as they would match inside other words. What
 *   follows the name in that word must be at least three letters long, so a name with a word ending
 *   (`ABSOLUTE`, `DOVES`) is not read as the name.
 * - An entry may list words that cancel it (`DOVE` with `CHOC` is Mars' chocolate, not the soap).
 * - The longest name found wins; among equals, an exact reading before an OCR-forgiving one, then
 *   the leftmost.
 *
 * The index is built once; a lookup costs a few map reads per word of the text.
 */

/** One phrase to find, with the value it stands for. */
export interface PhraseEntry<T> {
  value: T;
  /** The name and its other spellings or abbreviations. */
  phrases: readonly string[];
  /** Words that, when present in the text, mean this is not the entry (matched as word prefixes). */
  notWith?: readonly string[];
}

/**
 * How a phrase was read: `exact` (letters as written, spaces aside), `ocr` (only with OCR confusions or a
 * doubled letter forgiven) or `glued` (running into the next word, as when a receipt drops a space).
 */
export type MatchKind = 'exact' | 'ocr' | 'glued';

/** A match: the entry's value, the phrase that was found and how it was read. */
export interface PhraseMatch<T> {
  value: T;
  phrase: string;
  kind: MatchKind;
}

interface Candidate<T> {
  value: T;
  phrase: string;
  key: string;
  notWith: readonly string[];
}

/** Shortest name (in letters and digits) that may match with OCR confusions forgiven. */
const MIN_FOLDED = 4;
/** Shortest name that may run into the next word. */
const MIN_GLUED = 7;
/** Shortest rest of a word a name may run into (shorter rests are word endings: `ABSOLUT|E`). */
const MIN_GLUED_REST = 3;
/** Shortest name whose doubled letters may be printed once, or single ones twice (`GUINESS`). */
const MIN_UNDOUBLED = 6;

/**
 * Upper case, without accents or apostrophes, `&` kept inside words (`M&M'S` -> `M&MS`), and every
 * other character a word break.
 */
export function normalizeText(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toUpperCase()
      .replace(/['’‘`´]/g, '')
      .replace(/\s*&\s*/g, '&')
      // `+` between letters is printed for `&` (`G+G`, `CAVENDISH + HARVEY`).
      .replace(/(?<=[A-Z])\s*\+\s*(?=[A-Z])/g, '&')
      .replace(/[^A-Z0-9&]+/g, ' ')
      .trim()
  );
}

function words(normalized: string): string[] {
  return normalized === '' ? [] : normalized.split(' ');
}

/** Splits words where letters and digits meet: `COKE1` -> `COKE`, `1`. */
function splitDigits(tokens: string[]): string[] {
  return tokens.flatMap((t) => t.split(/(?<=[A-Z&])(?=\d)|(?<=\d)(?=[A-Z&])/));
}

/**
 * A name and, when it has umlauts or ß, its spelling without them, as German tills print it
 * (`Bärenmarke` → `Baerenmarke`, `Rügenwalder Mühle` → `Ruegenwalder Muehle`, `Weiß` → `Weiss`).
 */
export function withUmlautsSpelt(phrase: string): string[] {
  const spelt = phrase
    .replace(/[äÄöÖüÜ]/g, (c) => ({ ä: 'ae', Ä: 'AE', ö: 'oe', Ö: 'OE', ü: 'ue', Ü: 'UE' })[c] ?? c)
    .replace(/ß/g, 'ss');
  return spelt === phrase ? [phrase] : [phrase, spelt];
}

/** Maps characters OCR confuses to one of them. */
export function foldOcr(text: string): string {
  return text
    .replace(/0/g, 'O')
    .replace(/[1L|]/g, 'I')
    .replace(/5/g, 'S')
    .replace(/3/g, 'E')
    .replace(/8/g, 'B');
}

/** A key with every run of one letter written once: `GUINNESS` -> `GUINES`. */
export function undoubled(key: string): string {
  return key.replace(/([A-Z])\1+/g, '$1');
}

/**
 * The text with a space where a run of capitals meets small letters, in the two ways it can be read:
 * before the small letters (`SELIT|stop`) and before the last capital (`HH|Asahi`); null when the
 * text has no such place.
 */
export function caseSplits(text: string): [string, string] | null {
  if (!/\p{Lu}{2}\p{Ll}/u.test(text)) return null;
  return [
    text.replace(/(?<=\p{Lu}{2})(?=\p{Ll})/gu, ' '),
    text.replace(/(?<=\p{Lu})(?=\p{Lu}\p{Ll})/gu, ' '),
  ];
}

/** The compact key of a phrase: its words joined without spaces. */
export function phraseKey(phrase: string): string {
  return words(normalizeText(phrase)).join('');
}

export class PhraseMatcher<T> {
  private readonly exact = new Map<string, Candidate<T>[]>();
  private readonly folded = new Map<string, Candidate<T>[]>();
  /** Names long enough to run into the next word, by their first MIN_GLUED characters. */
  private readonly gluedExact = new Map<string, Candidate<T>[]>();
  private readonly gluedFolded = new Map<string, Candidate<T>[]>();
  /** Names of MIN_UNDOUBLED characters or more, by their key with doubled letters written once. */
  private readonly single = new Map<string, Candidate<T>[]>();
  private readonly maxKey: number;

  constructor(entries: Iterable<PhraseEntry<T>>) {
    let maxKey = 0;
    for (const entry of entries) {
      const notWith = (entry.notWith ?? []).map(phraseKey).filter((w) => w !== '');
      for (const phrase of entry.phrases.flatMap(withUmlautsSpelt)) {
        const key = phraseKey(phrase);
        if (key === '') continue;
        maxKey = Math.max(maxKey, key.length);
        const candidate: Candidate<T> = { value: entry.value, phrase, key, notWith };
        add(this.exact, key, candidate);
        if (key.length >= MIN_GLUED) add(this.gluedExact, key.slice(0, MIN_GLUED), candidate);
        if (key.length >= MIN_UNDOUBLED && /^[A-Z]+$/.test(key))
          add(this.single, undoubled(key), { ...candidate, key: undoubled(key) });
        if (key.length >= MIN_FOLDED) {
          const foldedKey = foldOcr(key);
          add(this.folded, foldedKey, { ...candidate, key: foldedKey });
          if (key.length >= MIN_GLUED)
            add(this.gluedFolded, foldedKey.slice(0, MIN_GLUED), { ...candidate, key: foldedKey });
        }
      }
    }
    this.maxKey = maxKey;
  }

  /**
   * The best known name in a text, or null.
   * @param text - e.g. a receipt line description or a merchant name
   * @param accept - when given, only entries it accepts may match (e.g. a retailer's own label only
   *   on that retailer's receipt)
   */
  match(text: string, accept?: (value: T) => boolean): PhraseMatch<T> | null {
    const plain = words(normalizeText(text));
    if (plain.length === 0) return null;
    const found: Array<{ c: Candidate<T>; start: number; rank: number }> = [];
    const scan = (
      tokens: string[],
      index: Map<string, Candidate<T>[]>,
      glued: Map<string, Candidate<T>[]>,
      rank: number,
    ) => {
      // rest[i]: the text from word i on, without spaces, cut to the longest name.
      const rest: string[] = new Array<string>(tokens.length + 1).fill('');
      for (let i = tokens.length - 1; i >= 0; i--)
        rest[i] = (tokens[i]! + rest[i + 1]!).slice(0, this.maxKey + 1);
      for (let i = 0; i < tokens.length; i++) {
        let joined = '';
        for (let j = i; j < tokens.length && joined.length < this.maxKey; j++) {
          joined += tokens[j];
          for (const c of index.get(joined) ?? []) found.push({ c, start: i, rank });
        }
        const tail = rest[i]!;
        if (tail.length > MIN_GLUED) {
          for (const c of glued.get(tail.slice(0, MIN_GLUED)) ?? []) {
            if (tail.length > c.key.length && tail.startsWith(c.key) && gluedRest(tokens, i, c.key.length))
              found.push({ c, start: i, rank: rank + 2 });
          }
        }
      }
    };
    const digitSplit = splitDigits(plain);
    // A number stays a number: `8053` is not read as `BOSE`.
    const folded = plain.map((t) => (/[A-Z]/.test(t) ? foldOcr(t) : t));
    const none = new Map<string, Candidate<T>[]>();
    scan(plain, this.exact, this.gluedExact, 0);
    if (digitSplit.length !== plain.length) scan(digitSplit, this.exact, this.gluedExact, 0);
    for (const split of caseSplits(text) ?? [])
      scan(splitDigits(words(normalizeText(split))), this.exact, none, 0);
    scan(folded, this.folded, this.gluedFolded, 1);
    scan(digitSplit.map(undoubled), this.single, none, 1);
    if (found.length === 0) return null;
    found.sort((a, b) => b.c.key.length - a.c.key.length || a.rank - b.rank || a.start - b.start);
    const cancelled = (c: Candidate<T>) =>
      c.notWith.some(
        (w) => plain.some((t) => t.startsWith(w)) || folded.some((t) => t.startsWith(foldOcr(w))),
      );
    const best = found.find(
      ({ c }) => (c.notWith.length === 0 || !cancelled(c)) && (accept === undefined || accept(c.value)),
    );
    if (!best) return null;
    const kind: MatchKind = best.rank >= 2 ? 'glued' : best.rank === 1 ? 'ocr' : 'exact';
    return { value: best.c.value, phrase: best.c.phrase, kind };
  }
}

/**
 * Whether a name of `length` characters read from word `start` on ends inside a word with at least
 * MIN_GLUED_REST characters left (`MRMUSCLE|INTANK`), not at a word ending (`ABSOLUT|E`).
 */
function gluedRest(tokens: readonly string[], start: number, length: number): boolean {
  let end = 0;
  for (let j = start; j < tokens.length; j++) {
    end += tokens[j]!.length;
    if (end > length) return end - length >= MIN_GLUED_REST;
  }
  return false;
}

function add<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
