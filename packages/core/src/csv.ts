/** A value of a CSV field: text, a number, a flag, money (two decimals) or nothing. */
export type CsvValue = string | number | boolean | null | { money: number };

/**
 * One CSV field. Numbers keep a dot decimal point (money with two decimals); text that a spreadsheet
 * would take for a formula (starting with = + - @) gets a leading apostrophe; fields with a comma,
 * quote or line break are quoted.
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'object') return value.money.toFixed(2);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
