import { parseAmount, parseDate } from '@receipts/core';

/**
 * How `npm run eval` compares a field read by an analyzer with the ground truth. Both sides go
 * through the same function, and a field counts as right only when the results are equal:
 * - text (company, address): Unicode NFKC, case-folded, every character that is not a letter or a
 *   digit becomes a space, runs of spaces collapse to one, ends trimmed
 *   (`MR. D.I.Y. (M) SDN BHD` -> `mr d i y m sdn bhd`);
 * - date: read as a calendar date (day first when ambiguous, as in the Malaysian ground truth;
 *   `25/12/2018`, `17-03-18`, `04 JUN 2018` all work) and written `YYYY-MM-DD`;
 * - total: currency marks dropped, read as a number and written with 2 decimals (`RM8.60` -> `8.60`).
 * A missing value normalises to the empty string, which never equals a present one.
 */
export function normaliseText(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** See {@link normaliseText}: a date as `YYYY-MM-DD`, or the folded text when it is not a date. */
export function normaliseDate(value: string | null | undefined): string {
  if (value === null || value === undefined || value.trim() === '') return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  return parseDate(value, 'dmy') ?? normaliseText(value);
}

/** See {@link normaliseText}: an amount with 2 decimals, or the folded text when it is not one. */
export function normaliseTotal(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value.toFixed(2);
  if (/^\s*-?\d+(?:\.\d+)?\s*$/.test(value)) return Number(value).toFixed(2);
  const amount = parseAmount(value);
  return amount === null ? normaliseText(value) : amount.toFixed(2);
}

/**
 * A chain's slug or a merchant name as lower-case letters only (`Aldi GmbH & Co. KG` ->
 * `aldigmbhcokg`), for the German set's shop, whose truth is the chain's slug.
 */
export function normaliseChain(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, '');
}
