import { apiRequest } from '../../../lib/api-client';

/** POST /api/log. Logging must never break what the person is doing, so failures only reach the console. */
export async function logEvent(event: string, properties?: Record<string, unknown>): Promise<void> {
  try {
    await apiRequest('log', { body: { event, properties } });
  } catch (error) {
    console.warn(`Could not log '${event}'`, error);
  }
}
