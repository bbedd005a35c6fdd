import type { Logger } from '../ports';

const MAX_PROPERTIES_CHARS = 4000;

/**
 * Records an event the web app reports (spec §7 POST /api/log), e.g. 'Video permissions denied'.
 * Anyone may call it, so what is logged is bounded and marked as client-reported.
 */
export function logClientEvent(
  deps: { logger: Logger },
  input: { event: string; properties?: Record<string, unknown> },
  meta: { sourceIp?: string; userAgent?: string } = {},
): { logged: true } {
  let properties: unknown = input.properties ?? {};
  const json = JSON.stringify(properties);
  if (json.length > MAX_PROPERTIES_CHARS) properties = { truncated: json.slice(0, MAX_PROPERTIES_CHARS) };
  deps.logger.info('client event', { source: 'web', event: input.event, properties, ...meta });
  return { logged: true };
}
