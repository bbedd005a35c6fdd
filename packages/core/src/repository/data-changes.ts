/**
 * The log of what changed a user's report data, kept beside the user's data version: each write
 * that changes the version records which receipts (by file name) and which merchants it touched. A
 * copy of the report data of an older version is brought up to date by reading only those rows
 * again, as long as the log still reaches back to that version; otherwise it is rebuilt from all of
 * the user's rows.
 */

/** One write: from one data version to the next, and what it touched. */
export interface DataChange {
  /** The data version before the write. */
  from: string;
  /** The data version the write set. */
  to: string;
  /** Receipts written, edited, moved or deleted, by file name. */
  files: string[];
  /** Merchants edited or removed beyond the receipts' own (a rename, a merge). */
  merchants: string[];
}

/** What changed between two data versions. */
export interface ChangedSince {
  files: string[];
  merchants: string[];
}

/** Most writes the log keeps; a copy older than these is rebuilt. */
export const MAX_DATA_CHANGES = 100;

/** Most characters of the log as stored (a text property of the user's row). */
export const MAX_DATA_CHANGES_CHARS = 16_000;

/**
 * The log with `change` added, its oldest writes dropped to keep within {@link MAX_DATA_CHANGES}
 * entries and {@link MAX_DATA_CHANGES_CHARS} characters. A change too large to keep alone leaves
 * the log empty, which makes every older copy rebuild.
 */
export function appendDataChange(log: DataChange[], change: DataChange): DataChange[] {
  const next = [...log, change].slice(-MAX_DATA_CHANGES);
  while (next.length > 0 && JSON.stringify(next).length > MAX_DATA_CHANGES_CHARS) next.shift();
  return next;
}

/**
 * What changed from version `from` to version `to`, or null when the log does not reach back to
 * `from` unbroken (the copy must be rebuilt).
 */
export function changedSince(log: DataChange[], from: string, to: string): ChangedSince | null {
  if (from === to) return { files: [], merchants: [] };
  const start = log.findIndex((change) => change.from === from);
  if (start < 0) return null;
  const files = new Set<string>();
  const merchants = new Set<string>();
  let at = from;
  for (const change of log.slice(start)) {
    if (change.from !== at) return null;
    for (const file of change.files) files.add(file);
    for (const merchant of change.merchants) merchants.add(merchant);
    at = change.to;
    if (at === to) return { files: [...files], merchants: [...merchants] };
  }
  return null;
}

/** The log as stored; anything unreadable reads as an empty log (copies are then rebuilt). */
export function parseDataChanges(raw: string | null): DataChange[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed) || !parsed.every(isDataChange)) return [];
    return parsed;
  } catch {
    return [];
  }
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

function isDataChange(value: unknown): value is DataChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  return (
    typeof change.from === 'string' &&
    typeof change.to === 'string' &&
    isStrings(change.files) &&
    isStrings(change.merchants)
  );
}
