import { z } from 'zod';

/**
 * The runtime configuration the SPA fetches from `/config.json` at start. It holds only public values
 * (a Firebase web API key identifies the project; it is not a secret), so one build serves every stage.
 */
export const appConfigSchema = z.object({
  firebase: z.object({
    apiKey: z.string().min(1, 'firebase.apiKey is required.'),
    authDomain: z.string().min(1, 'firebase.authDomain is required.'),
    projectId: z.string().min(1, 'firebase.projectId is required.'),
    appId: z.string().optional(),
    messagingSenderId: z.string().optional(),
    storageBucket: z.string().optional(),
  }),
  authEmulatorUrl: z.string().nullish(),
  vapidKey: z.string().nullish(),
  adminEmail: z.string().nullish(),
});

export type AppConfig = z.infer<typeof appConfigSchema>;

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
  const parsed = appConfigSchema.safeParse(body);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`);
    throw new ConfigError(`/config.json is incomplete: ${problems.join('; ')}`);
  }
  return parsed.data;
}
