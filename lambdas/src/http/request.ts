import { PayloadTooLargeError, UnauthorizedError, ValidationError } from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from 'zod';
import { header } from './responses';

/** Bodies of the small JSON routes (all but upload). */
export const SMALL_BODY_BYTES = 64 * 1024;

/** A zod failure as one sentence per problem, in the schemas' own words. */
export function validationError(error: z.ZodError, where: string): ValidationError {
  const messages = [
    ...new Set(
      error.issues.map((issue) => {
        const path = issue.path.join('.');
        // Our schemas phrase their messages with the field name; zod's defaults do not.
        if (path && !issue.message.includes(path)) {
          if (issue.code === 'invalid_type') {
            return /received undefined/.test(issue.message)
              ? `${path} is required.`
              : `${path} must be a ${String(issue.expected)}.`;
          }
          return `${path}: ${issue.message}`;
        }
        return issue.message;
      }),
    ),
  ];
  return new ValidationError(`Invalid ${where}: ${messages.join(' ')}`, { code: 'InvalidRequest' });
}

/** The query string, checked against a schema. */
export function queryOf<S extends z.ZodType>(event: APIGatewayProxyEventV2, schema: S): z.output<S> {
  const parsed = schema.safeParse(event.queryStringParameters ?? {});
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}

/** The body's bytes as text, refused with 413 above `maxBytes`. */
export function bodyText(event: APIGatewayProxyEventV2, maxBytes: number): string {
  const raw = event.body ?? '';
  const size = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
  if (size > maxBytes) {
    throw new PayloadTooLargeError(
      `The request body is ${(size / (1024 * 1024)).toFixed(1)} MB; the largest accepted here is ` +
        `${(maxBytes / (1024 * 1024)).toFixed(1)} MB.`,
      { code: 'BodyTooLarge' },
    );
  }
  return event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
}

/** Deepest nesting of objects and arrays accepted in a JSON body; the app's own bodies are flat. */
export const MAX_JSON_DEPTH = 16;

/**
 * Whether the JSON text nests objects and arrays deeper than `maxDepth`, told by one pass over the
 * characters before any parsing: a deeply nested body (thousands of levels fit in a few kB) never
 * reaches JSON.parse, a schema or a logger.
 */
export function nestedDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** The JSON body, checked against a schema. */
export function jsonBodyOf<S extends z.ZodType>(
  event: APIGatewayProxyEventV2,
  schema: S,
  maxBytes = SMALL_BODY_BYTES,
): z.output<S> {
  const assertShallow = (json: string) => {
    if (nestedDeeperThan(json, MAX_JSON_DEPTH)) {
      throw new ValidationError(
        `The request body nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep; send flat JSON.`,
        { code: 'TooDeep' },
      );
    }
  };
  // Checked first, so a deep body is told what is wrong with it even when it is also too long.
  if (!event.isBase64Encoded) assertShallow(event.body ?? '');
  const text = bodyText(event, maxBytes);
  if (event.isBase64Encoded) assertShallow(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('The request body must be JSON (Content-Type: application/json).', {
      code: 'InvalidJson',
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('The request body must be a JSON object.', { code: 'InvalidJson' });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error, 'request body');
  return parsed.data;
}

/**
 * The bearer token of the Authorization header.
 * @throws UnauthorizedError when there is none
 */
export function bearerToken(event: APIGatewayProxyEventV2): string {
  const value = header(event, 'authorization');
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  if (!match?.[1]) {
    throw new UnauthorizedError('Sign in first: send "Authorization: Bearer <Firebase ID token>".', {
      code: 'MissingToken',
    });
  }
  return match[1];
}
