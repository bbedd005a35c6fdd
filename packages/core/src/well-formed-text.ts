// A surrogate without its pair: valid in a JS string and in JSON, but not text any store can hold
// (Azure's key encoding throws on it, DynamoDB stores UTF-8 and would change it).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the string is well-formed UTF-16 (no lone surrogate), so that every store can hold it. */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** What a person is told about such text. */
export const MALFORMED_TEXT_MESSAGE = (label: string) =>
  `${label} holds a broken character (half of a character pair); type it again or remove it.`;
