/**
 * Writes in progress, kept on the user's row (`write_intents`, JSON): a write records which receipts
 * (by file name) and merchants it is about to change before it writes any of their rows, and removes
 * the record in the same conditional write that logs the change for the reports. A record found later
 * is a write that stopped half-way (a crash, a timeout, a store that failed); whoever finds it brings
 * the read models up to date from the rows as they are (see use-cases/commit-write.ts).
 */
export interface WriteIntent {
  /** Unique per write. */
  id: string;
  /** Receipts the write changes, by file name. */
  files: string[];
  /** Merchants it changes beyond the receipts' own. */
  merchants: string[];
  /** When it started (ISO 8601). */
  at: string;
  /**
   * Uploads (file name, image SHA-256) whose image, analysis, items and index row go if neither a
   * receipt nor a queue entry holds them when the write is finished (a scan, a scan's removal, a
   * delete; see use-cases/settle-uploads.ts).
   */
  uploads?: UploadRef[];
}

/** An upload a write may leave things of: its file name and its image's SHA-256, if known. */
export interface UploadRef {
  f: string;
  h: string | null;
}

const isUploadRef = (value: unknown): value is UploadRef =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as UploadRef).f === 'string' &&
  (typeof (value as UploadRef).h === 'string' || (value as UploadRef).h === null);

/**
 * Most characters of the stored list (Azure Tables takes 32K characters in a string property). Past
 * it the oldest records are folded into one that names all their receipts and merchants, so no write
 * in progress is ever forgotten.
 */
export const MAX_WRITE_INTENTS_CHARS = 30_000;

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

function isWriteIntent(value: unknown): value is WriteIntent {
  if (typeof value !== 'object' || value === null) return false;
  const intent = value as Record<string, unknown>;
  return (
    typeof intent.id === 'string' &&
    typeof intent.at === 'string' &&
    isStrings(intent.files) &&
    isStrings(intent.merchants) &&
    (intent.uploads === undefined || (Array.isArray(intent.uploads) && intent.uploads.every(isUploadRef)))
  );
}

/** The list as stored; unreadable entries are dropped. */
export function parseWriteIntents(raw: string | null): WriteIntent[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isWriteIntent) : [];
  } catch {
    return [];
  }
}

/** The list as stored, its oldest records folded together while it is too long. */
export function writeIntentsText(intents: readonly WriteIntent[]): string {
  let list = [...intents];
  let text = JSON.stringify(list);
  while (text.length > MAX_WRITE_INTENTS_CHARS && list.length > 1) {
    const [a, b, ...rest] = list;
    list = [
      {
        id: `${a!.id}+${b!.id}`.slice(0, 200),
        at: a!.at < b!.at ? a!.at : b!.at,
        files: [...new Set([...a!.files, ...b!.files])],
        merchants: [...new Set([...a!.merchants, ...b!.merchants])],
        ...(a!.uploads || b!.uploads ? { uploads: [...(a!.uploads ?? []), ...(b!.uploads ?? [])] } : {}),
      },
      ...rest,
    ];
    text = JSON.stringify(list);
  }
  if (text.length > MAX_WRITE_INTENTS_CHARS) {
    // One write of more receipts than the row can name: it is finished as a change of everything.
    text = JSON.stringify([{ id: list[0]!.id, at: list[0]!.at, files: [ALL_FILES], merchants: [] }]);
  }
  return text;
}

/** Stands for every receipt of the user in a write intent too large to name them. */
export const ALL_FILES = '*';
