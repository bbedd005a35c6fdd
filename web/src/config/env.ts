/**
 * The runtime configuration the SPA fetches from `/config.json` at start. It holds only public values
 * (a Firebase web API key identifies the project; it is not a secret), so one build serves every stage.
 */
export interface AppConfig {
  firebase: {
    apiKey: string;
    authDomain: string;
    projectId: string;
    appId?: string;
    messagingSenderId?: string;
    storageBucket?: string;
  };
  /** Set only on the local stack: the Firebase Auth emulator's URL. */
  authEmulatorUrl?: string | null;
  vapidKey?: string | null;
  adminEmail?: string | null;
}

/** Thrown when /config.json cannot be read or is not what the app needs; its message names the fault. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads and validates `/config.json`.
 *
 * @param fetcher - the fetch to use (tests pass their own)
 * @returns the validated configuration
 * @throws ConfigError with a message a person can act on
 */
export async function loadConfig(fetcher: typeof fetch = fetch): Promise<AppConfig> {
  let response: Response;
  try {
    response = await fetcher('/config.json', { headers: { accept: 'application/json' } });
  } catch (cause) {
    throw new ConfigError(`Could not reach the server to read /config.json (${String(cause)}).`, { cause });
  }
  if (!response.ok) {
    throw new ConfigError(`The server answered ${response.status} for /config.json.`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (cause) {
    throw new ConfigError('/config.json is not valid JSON.', { cause });
  }
  return parseAppConfig(body);
}

const REQUIRED_FIREBASE = ['apiKey', 'authDomain', 'projectId'] as const;
const OPTIONAL_FIREBASE = ['appId', 'messagingSenderId', 'storageBucket'] as const;
const NULLABLE = ['authEmulatorUrl', 'vapidKey', 'adminEmail'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a parsed `/config.json` and keeps only the fields the app reads. Written out by hand rather
 * than with zod: it runs before the first page shows, and zod (even zod/mini) would add about 15 KB
 * gzipped to the JavaScript every visit loads first.
 *
 * @throws ConfigError naming every field that is missing or of the wrong type
 */
export function parseAppConfig(body: unknown): AppConfig {
  if (!isObject(body)) throw new ConfigError('/config.json must hold a JSON object.');
  const problems: string[] = [];
  const firebaseIn = body.firebase;
  const firebase: Record<string, string> = {};
  if (!isObject(firebaseIn)) {
    problems.push('firebase must be an object with apiKey, authDomain and projectId');
  } else {
    for (const key of REQUIRED_FIREBASE) {
      const value = firebaseIn[key];
      if (typeof value === 'string' && value.length > 0) firebase[key] = value;
      else problems.push(`firebase.${key} is required`);
    }
    for (const key of OPTIONAL_FIREBASE) {
      const value = firebaseIn[key];
      if (typeof value === 'string') firebase[key] = value;
      else if (value !== undefined) problems.push(`firebase.${key} must be a string`);
    }
  }
  const config: Record<string, unknown> = { firebase };
  for (const key of NULLABLE) {
    const value = body[key];
    if (value === undefined) continue;
    if (typeof value === 'string' || value === null) config[key] = value;
    else problems.push(`${key} must be a string or null`);
  }
  if (problems.length > 0) throw new ConfigError(`/config.json is incomplete: ${problems.join('; ')}.`);
  return config as unknown as AppConfig;
}
