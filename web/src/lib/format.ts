/** Numbers are shown with 2 decimals (spec §9). */
export function formatMoney(value: number | null | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : '';
}

/** Quantities and counts: whole numbers stay whole, fractions get at most 2 decimals. */
export function formatQuantity(value: number | null | undefined): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** `blobName` and `fileName` are the last path segment of a receipt's document_url (spec §7). */
export function blobNameOf(documentUrl: string): string {
  const withoutQuery = documentUrl.split(/[?#]/)[0] ?? '';
  const segments = withoutQuery.split('/').filter(Boolean);
  return segments[segments.length - 1] ?? '';
}

/** Text for a value that may be missing. */
export function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}
