import type { AnalysisResult, AnalyzedItem } from './analysis';
import type { Enricher } from './ports';

/**
 * Fills each item's `brand` and the brand's `owning_corporation`, and the merchant's
 * `owning_corporation`, from an Enricher. Pure: the result is a new object; the input is untouched.
 *
 * A match replaces what the analyzer said; without a match a brand the analyzer already gave is kept
 * (with its corporation, or null), and an unknown stays null rather than guessed. A weak match sets
 * the item's `brand_unsure`. The merchant's name is passed along, so a retailer's own label counts
 * at that retailer, and so is the receipt's country, so a brand with an owner per country gets the
 * right one.
 *
 * @param result - an analysis result as an Analyzer returns it
 * @param enricher - the brand and merchant dictionary to consult
 */
export function enrichAnalysis(result: AnalysisResult, enricher: Enricher): AnalysisResult {
  const context = { merchant: result.merchant.name, country: result.receipt.country_region };
  const items = result.items.map((item): AnalyzedItem => {
    const match = item.description.trim() === '' ? null : enricher.brandFor(item.description, context);
    if (match) {
      const { brand_unsure: _previous, ...rest } = item;
      return {
        ...rest,
        brand: match.brand,
        owning_corporation: match.owning_corporation,
        ...(match.unsure ? { brand_unsure: true } : {}),
      };
    }
    const brand = typeof item.brand === 'string' && item.brand.trim() !== '' ? item.brand : null;
    return { ...item, brand, owning_corporation: brand === null ? null : (item.owning_corporation ?? null) };
  });
  const name = result.merchant.name;
  const merchantOwner = name && name.trim() !== '' ? enricher.corporationForMerchant(name) : null;
  return {
    ...result,
    merchant: {
      ...result.merchant,
      owning_corporation: merchantOwner ?? result.merchant.owning_corporation ?? null,
    },
    items,
  };
}

/**
 * A brand's owner on a receipt of one country: the owner of that country where another corporation
 * owns the brand there (`owners_by_country`), else the brand's owner; for a brand with owners per
 * country, null when the country is not known (7UP is PepsiCo's, but Keurig Dr Pepper's in the US).
 */
export function brandOwnerIn(
  brand: { owning_corporation: string | null; owners_by_country?: Readonly<Record<string, string>> },
  country: string | null | undefined,
): string | null {
  const others = brand.owners_by_country;
  if (!others || Object.keys(others).length === 0) return brand.owning_corporation;
  if (!country) return null;
  return others[country.toUpperCase()] ?? brand.owning_corporation;
}
