/**
 * The browser's local storage keys of spec §3. Reads and writes never throw: storage can be disabled
 * (private windows, strict settings), and the app must still work for the current tab.
 */
export const STORAGE_KEYS = {
  signedIn: 'signed_in',
  userId: 'signed_in_id',
  userEmail: 'signed_in_email',
  pushToken: 'fcm_token',
} as const;

export interface StoredSession {
  userId: string;
  userEmail: string;
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the session lasts for this tab only.
  }
}

/** The session restored from the stored user id (spec §4), or null when signed out. */
export function readStoredSession(): StoredSession | null {
  const userId = read(STORAGE_KEYS.userId);
  if (read(STORAGE_KEYS.signedIn) !== 'true' || !userId) return null;
  return { userId, userEmail: read(STORAGE_KEYS.userEmail) ?? '' };
}

/** Stores the id, flag and email after a successful sign-in. */
export function storeSession(session: StoredSession): void {
  write(STORAGE_KEYS.signedIn, 'true');
  write(STORAGE_KEYS.userId, session.userId);
  write(STORAGE_KEYS.userEmail, session.userEmail);
}

/** Clears the id, flag, email and push token at sign-out. */
export function clearStoredSession(): void {
  write(STORAGE_KEYS.signedIn, null);
  write(STORAGE_KEYS.userId, null);
  write(STORAGE_KEYS.userEmail, null);
  write(STORAGE_KEYS.pushToken, null);
}

export function readStoredPushToken(): string | null {
  return read(STORAGE_KEYS.pushToken);
}

export function storePushToken(token: string): void {
  write(STORAGE_KEYS.pushToken, token);
}
