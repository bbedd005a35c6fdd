import { PayloadTooLargeError, UnauthorizedError, ValidationError } from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { z } from 'zod';
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

/** The JSON body, checked against a schema. */
export function jsonBodyOf<S extends z.ZodType>(
  event: APIGatewayProxyEventV2,
  schema: S,
  maxBytes = SMALL_BODY_BYTES,
): z.output<S> {
  const text = bodyText(event, maxBytes);
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
