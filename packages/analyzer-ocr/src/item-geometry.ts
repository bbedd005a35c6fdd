import { cleanLine, closeFullWidthMarks, type LineWord, type ReceiptLine } from './receipt-lines';

/**
 * The columns of a receipt's item rows, found from the boxes of the words an engine read (where it
 * gives them) by alignment across rows: where the amounts end, and how wide a character is.
 */
export interface ItemLayout {
  /** Right edge (px) of the amount column: the rightmost edge that two or more plain amounts share. */
  amountRight: number | null;
  /** Median width (px) of one character, from the amounts' boxes. */
  charWidth: number | null;
}

/** A word that starts with an amount (`14,99`, `-9.60`, `2,305.80`, `48.77*`), not run on into more digits. */
const LEADING_AMOUNT_RE = /^-?\d{1,3}(?:[.,]?\d{3})*[.,]\d{2}(?!\d)/;

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * The amount column of the receipt: amounts are grouped by their right edges (within one and a
 * half characters); the rightmost group of at least two is the column the line totals are printed in
 * (the unit-price column, further left, may hold more of them). Null without boxes.
 */
export function findItemLayout(lines: readonly ReceiptLine[]): ItemLayout {
  const ends: Array<{ right: number; width: number }> = [];
  for (const word of lines.flatMap((l) => l.words ?? [])) {
    const amount = LEADING_AMOUNT_RE.exec(word.text);
    if (!amount) continue;
    const width = (word.box[2] - word.box[0]) / word.text.length;
    // Where the amount itself ends, also when a mark or code was read into the same word (`48.77*`).
    ends.push({ right: word.box[0] + amount[0].length * width, width });
  }
  const charWidth = median(ends.map((e) => e.width));
  if (charWidth === null || ends.length < 2) return { amountRight: null, charWidth };
  const edges = ends.map((e) => e.right).sort((a, b) => b - a);
  const tolerance = charWidth * 1.5;
  for (const edge of edges) {
    const group = edges.filter((e) => Math.abs(e - edge) <= tolerance);
    if (group.length >= 2) return { amountRight: median(group), charWidth };
  }
  return { amountRight: null, charWidth };
}

/**
 * The line's text without what its last word prints right of the amount column: a tax or VAT code
 * in a column of its own (`10,00  0`, `20.99  19`) or run on to the amount (`49. 9919`, `9,701`, read
 * where the code column touches the amounts). The text as it is when the line has no boxes or nothing
 * stands past the column.
 */
export function withoutCodeColumn(line: ReceiptLine, layout: ItemLayout): string {
  const last = line.words?.[line.words.length - 1];
  const { amountRight, charWidth } = layout;
  if (!last || amountRight === null || charWidth === null) return line.text;
  const text = line.text.trimEnd();
  const overhang = last.box[2] - amountRight;
  if (overhang < charWidth * 0.8) return text;
  // A code alone in its column: a short word starting right of where the amounts end.
  if (
    /^[\p{L}\d*]{1,2}$/u.test(last.text) &&
    last.box[0] >= amountRight - charWidth &&
    text.endsWith(last.text)
  ) {
    const rest = text.slice(0, -last.text.length).trimEnd();
    if (/\d[.,]\d{2}$/.test(rest)) return rest;
  }
  // A code after the amount in the same word (`20.99 19`), or digits run on to it past its two
  // decimals (`49. 9919`, `4.2481`).
  const glued = /(\d[.,]\s?\d{2})\s?\d{1,2}$/.exec(text);
  if (glued) return text.slice(0, glued.index + glued[1]!.length);
  return text;
}

/**
 * The line without the one-character words whose box overlaps the boxes of both words beside it
 * (`0,35 9 C`, `0,29 A C`, the `9` and `A` read where the amount and the tax code meet): printed
 * characters never overlap, so such a word is the engine reading the same print twice. The line as
 * it is without boxes, or when its text is not its words' text.
 */
export function withoutOverlappingSpecks(line: ReceiptLine): ReceiptLine {
  const words = line.words;
  if (!words || words.length < 3) return line;
  const kept = words.filter((word, i) => {
    const before = words[i - 1];
    const after = words[i + 1];
    return (
      !before ||
      !after ||
      word.text.trim().length !== 1 ||
      word.box[0] >= before.box[2] ||
      word.box[2] <= after.box[0]
    );
  });
  if (kept.length === words.length) return line;
  const joined = (ws: readonly LineWord[]) =>
    cleanLine(closeFullWidthMarks(ws.map((w) => w.text).join(' ')).normalize('NFKC'));
  if (joined(words) !== line.text) return line;
  const text = joined(kept);
  return { ...line, text, upper: text.toUpperCase(), words: kept };
}
