import type { AnalyzedMerchant } from '../analysis';
import { UNKNOWN_MERCHANT, merchantIdFor, normaliseName, normalisePostalCode } from '../repository/keys';
import type { MerchantRow, ReceiptRow } from '../repository/rows';
import { clean } from './analysis-rows';

/** What {@link matchMerchant} decides from. */
export interface MerchantMatchInput {
  userId: string;
  /** The merchant as the analysis read it. */
  analysed: AnalyzedMerchant;
  /** The user's merchants. */
  merchants: MerchantRow[];
  /** The receipt's row from an earlier analysis, if it was analysed before. */
  previous: ReceiptRow | null;
}

/**
 * The merchant row an analysis belongs to, ready to write. A merchant a person chose or edited for
 * this receipt stays; otherwise the user's merchant of the same name (and the same postal code where
 * both have one) is reused, keeping its id and name while what this receipt adds fills the gaps; a
 * merchant never seen gets an id from its name and postal code.
 * @param input - the analysed merchant, the user's merchants and the receipt's earlier row
 */
export function matchMerchant(input: MerchantMatchInput): MerchantRow {
  const { userId, analysed, merchants, previous } = input;
  const merchantName = clean(analysed.name) ?? UNKNOWN_MERCHANT;
  const nameKey = normaliseName(merchantName);
  const postal = normalisePostalCode(analysed.postal_code);
  // Analysed again: what a person set stays.
  const edited = new Set(previous?.edited ?? []);
  const previousMerchant = previous
    ? merchants.find((m) => m.merchant_id === previous.merchant_id)
    : undefined;
  const keptMerchant =
    previousMerchant && (edited.has('merchant_name') || edited.has('merchant') || previousMerchant.edited)
      ? previousMerchant
      : undefined;
  const known = keptMerchant ?? findMerchant(merchants, nameKey, postal);
  return {
    merchant_id: known?.merchant_id ?? merchantIdFor(merchantName, analysed.postal_code),
    name: known?.name ?? merchantName,
    phone_number: known?.phone_number ?? clean(analysed.phone_number),
    postal_code: known?.postal_code ?? clean(analysed.postal_code),
    city: known?.city ?? clean(analysed.city),
    street_address: known?.street_address ?? clean(analysed.street_address),
    user_id: userId,
    owning_corporation: keptMerchant
      ? (keptMerchant.owning_corporation ?? null)
      : (clean(analysed.owning_corporation) ?? known?.owning_corporation ?? null),
    vectors: known?.vectors ?? null,
    name_key: keptMerchant?.name_key ?? nameKey,
  };
}

/** Picks the user's merchant this analysis is from: same name, and the same postal code where both have one. */
function findMerchant(
  merchants: MerchantRow[],
  nameKey: string,
  postal: string | null,
): MerchantRow | undefined {
  const sameName = merchants.filter((m) => m.name_key === nameKey);
  return (
    sameName.find((m) => normalisePostalCode(m.postal_code) === postal) ??
    sameName.find((m) => postal === null || normalisePostalCode(m.postal_code) === null)
  );
}
