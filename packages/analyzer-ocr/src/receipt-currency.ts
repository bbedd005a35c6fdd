import { COUNTRY_CURRENCY, findCurrencyMarks } from '@receipts/core';

/**
 * The currency of a receipt read by OCR, or null when nothing points to one. The marks are those core
 * reads ({@link findCurrencyMarks}); what is specific to OCR text is how they are weighed:
 * - every mark printed is one vote;
 * - a bare `$` that the country does not explain is read as US dollars, the likeliest reading of a
 *   receipt that prints one (the Textract mapper, which gets a currency from the service, leaves it
 *   unknown instead);
 * - the currency of the receipt's country counts one and a half votes, so that one stray symbol
 *   (OCR reads `¥` into smudges) does not outvote it, and it stands in when nothing is printed.
 * @param text - the receipt text, or one field of it
 * @param country - the receipt's country (ISO 3166 alpha-2), when known
 */
export function receiptCurrency(text: string, country?: string | null): string | null {
  const votes = new Map<string, number>();
  const vote = (code: string, weight: number) => votes.set(code, (votes.get(code) ?? 0) + weight);
  for (const { mark, code } of findCurrencyMarks(text, country)) {
    const read = code ?? (mark === '$' ? 'USD' : null);
    if (read) vote(read, 1);
  }
  const local = country ? COUNTRY_CURRENCY[country.toUpperCase()] : undefined;
  if (local) vote(local, 1.5);
  let best: string | null = null;
  let bestVotes = 0;
  for (const [code, n] of votes) {
    if (n > bestVotes) {
      best = code;
      bestVotes = n;
    }
  }
  return best;
}
