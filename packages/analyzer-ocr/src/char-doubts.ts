import type { CharDoubt } from './paddle-ocr';

/** A digit the OCR engine read with another digit as its runner-up: `8` at 0.50, `9` at 0.47. */
export interface DoubtedDigit {
  /** The probability of the digit read (0..1). */
  probability: number;
  /** The digit found next likeliest. */
  runnerUp: string;
}

/**
 * The least sure digit of a figure (a date, an amount) as the engine read it on its line, among the
 * digits whose runner-up was another digit (an OCR-confused digit: `5` and `9`, `8` and `9` in faint
 * print); null when none was doubted, or the figure is not found as printed on the line.
 *
 * @param line - the line as the engine read it (its doubts' positions are in it)
 * @param figure - the figure's text, as found on the line
 * @param doubts - the line's doubted characters
 */
export function doubtedDigit(
  line: string,
  figure: string,
  doubts: readonly CharDoubt[] | null | undefined,
): DoubtedDigit | null {
  if (!doubts || doubts.length === 0 || figure.length === 0) return null;
  const start = line.indexOf(figure);
  if (start < 0) return null;
  const end = start + figure.length;
  let weakest: DoubtedDigit | null = null;
  for (const [at, probability, runnerUp] of doubts) {
    if (at < start || at >= end || !/\d/.test(line[at] ?? '') || !/^\d$/.test(runnerUp)) continue;
    if (!weakest || probability < weakest.probability) weakest = { probability, runnerUp };
  }
  return weakest;
}
