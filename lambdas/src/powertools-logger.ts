import { Logger as Powertools } from '@aws-lambda-powertools/logger';
import type { Logger } from '@receipts/core';
import type { Context } from 'aws-lambda';

/** Options of {@link PowertoolsLogger}. */
export interface PowertoolsLoggerOptions {
  /** Lowest level written; default `info`. */
  level?: 'debug' | 'info' | 'warn' | 'error';
  /** The `service` key of every line; default `receipts`. */
  serviceName?: string;
}

/**
 * The Logger port on AWS Lambda through Powertools for AWS Lambda: one JSON line per call, tagged,
 * once {@link addContext} has been given the invocation's context, with the function's name, the
 * request id and whether it is a cold start. Error values among the fields are written with their
 * name, message, stack and cause.
 */
export class PowertoolsLogger implements Logger {
  private readonly powertools: Powertools;

  /** @param options - level and service name */
  constructor(options: PowertoolsLoggerOptions = {}) {
    this.powertools = new Powertools({
      serviceName: options.serviceName ?? 'receipts',
      logLevel: (options.level ?? 'info').toUpperCase() as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR',
    });
  }

  /**
   * Tags the lines that follow with this invocation (request id, cold start, function name).
   * @param context - the Lambda context the handler was called with
   */
  addContext(context: Context): void {
    this.powertools.addContext(context);
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.powertools.debug(message, fields ?? {});
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.powertools.info(message, fields ?? {});
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.powertools.warn(message, fields ?? {});
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.powertools.error(message, fields ?? {});
  }
}
