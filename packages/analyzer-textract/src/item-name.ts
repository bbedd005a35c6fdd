/**
 * Which lines of an item's row make its name. AnalyzeExpense gives an item's name (`ITEM`) and its
 * whole row (`EXPENSE_ROW`) as text lines in reading order, and the reduced responses keep no
 * geometry: what the lines say about the layout is their order, their lengths and where the row's
 * figures (quantity, unit price, amount) stand among them.
 */

/** How the name lines of the rows are read: each switch is one of the mapping's item rules. */
export interface NameLineRules {
  /** `wrapped-name`: the name is the lines a wrap joins; a line that did not wrap above it is a heading. */
  wrappedName: boolean;
  /** `tilted-row`: a row read from the top down off a line rising to the right has its name's pieces in reverse. */
  tiltedRow: boolean;
}

/** One row's text as Textract read it. */
export interface RowText {
  /** The `ITEM` (or `DESCRIPTION`) value, lines and all. */
  name: string;
  /** The `EXPENSE_ROW` value, lines and all. */
  row: string;
  /** The row's amount as printed (`PRICE`), cleaned. */
  amount: string | null;
  /** The row's other figures as printed (`UNIT_PRICE`, `QUANTITY` values), cleaned. */
  figures: string[];
}

/** The lines of a value, spaces collapsed, empty lines dropped. */
export function textLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '');
}

/**
 * The width of the receipt's name column, in characters: its longest name line. A name wraps to the
 * next line only when its next word does not fit on the line; with one short name on the receipt
 * this is the name's own length, so nothing counts as fitting that did not.
 */
export function nameColumnWidth(names: string[]): number {
  return Math.max(0, ...names.flatMap(textLines).map((l) => l.length));
}

/** Whether `line` was cut by the column's width: the first word of `next` would not have fitted on it. */
function wrapsTo(line: string, next: string, width: number): boolean {
  const word = next.split(' ')[0] ?? '';
  return line.length + 1 + word.length > width;
}

/** Index of the first row line holding one of the figures as whole words (`-1`: none does). */
function figuresLine(rowLines: string[], figures: string[]): number {
  const holds = (line: string, figure: string) => ` ${line} `.includes(` ${figure} `);
  return rowLines.findIndex((line) => figures.some((f) => f !== '' && holds(line, f)));
}

/**
 * The item's name lines, joined by newlines, with the rules that `rules` holds:
 *
 * - `wrapped-name`, for a name printed on lines of its own with its figures under it: a first line
 *   that did not wrap (the next line's first word would have fitted on it), no longer than that line
 *   and with no digit (no code, count or size: a section names a kind of goods) is a heading of the
 *   item list's section (`Minuman` above `Teh Tawar`), not part of the name; and a row line between
 *   the name and its figures that the name wrapped to (`... BAG & SP00` / `N.` / `8 PCS 243.000`)
 *   is the end of the name, also when Textract left it out of `ITEM`. Lines under the figures stay
 *   as read.
 * - `tilted-row`: a row whose text opens with its amount alone, its name after it in pieces
 *   (`20,000` / `TT` / `ICED`), is a photographed line rising to the right, read in pieces from the
 *   top down: the amount, printed at the line's right end, stands highest, and the name's pieces come
 *   right to left. They are put back in reading order (`ICED TT`).
 */
export function nameFromRow(
  { name, row, amount, figures }: RowText,
  width: number,
  rules: NameLineRules,
): string {
  let names = textLines(name);
  const rowLines = textLines(row);
  const at = figuresLine(rowLines, amount === null ? figures : [amount, ...figures]);
  if (names.length === 0 || at < 0) return names.join('\n');

  if (
    rules.tiltedRow &&
    names.length >= 2 &&
    rowLines[0] === amount &&
    names.every((line, i) => rowLines[i + 1] === line)
  )
    return [...names].reverse().join('\n');

  if (rules.wrappedName && at > 0) {
    // The name's lines as the row prints them above its figures, from its first line.
    const start = rowLines.indexOf(names[0]!);
    let above = 0;
    while (
      above < names.length &&
      start >= 0 &&
      start + above < at &&
      rowLines[start + above] === names[above]
    )
      above++;
    const whole = above === names.length;
    const [first, second] = names;
    const heading =
      whole &&
      second !== undefined &&
      !/\d/.test(first!) &&
      !wrapsTo(first!, second, width) &&
      first!.length <= second.length;
    if (heading) names = names.slice(1);
    // Row lines the name wrapped to before its figures, left out of ITEM.
    for (let i = start + above; whole && above > 0 && i < at; i++) {
      const line = rowLines[i]!;
      if (!/\p{L}/u.test(line) || !wrapsTo(names[names.length - 1]!, line, width)) break;
      names.push(line);
    }
  }
  return names.join('\n');
}
