import { RestError } from '@azure/data-tables';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  ConflictError,
  NotFoundError,
  StoreError,
  TransactionError,
  ValidationError,
} from '@receipts/core';
import { toStoreError, toTransactionError } from '../src';

const odata = (code: string, message: string) =>
  JSON.stringify({
    'odata.error': { code, message: { lang: 'en-US', value: `${message}\nRequestId:1\nTime:now` } },
  });
const entity = { table: 'Receipts', partitionKey: 'u1', rowKey: 'r1' };

describe('toStoreError', () => {
  it('maps 404, 409, 412, 400 and 403 to the core errors', () => {
    expect(
      toStoreError(new RestError(odata('ResourceNotFound', 'gone'), { statusCode: 404 }), entity),
    ).toBeInstanceOf(NotFoundError);
    const table = toStoreError(new RestError('x', { statusCode: 404, code: 'TableNotFound' }), entity);
    expect(table).toBeInstanceOf(NotFoundError);
    expect(table.message).toBe('Table "Receipts" does not exist.');
    const exists = toStoreError(
      new RestError(odata('EntityAlreadyExists', 'The specified entity already exists.'), {
        statusCode: 409,
      }),
      entity,
    );
    expect(exists).toBeInstanceOf(ConflictError);
    expect(exists.code).toBe('EntityAlreadyExists');
    expect(toStoreError(new RestError('x', { statusCode: 412 }), entity)).toBeInstanceOf(ConflictError);
    const bad = toStoreError(
      new RestError(odata('InvalidInput', 'One of the request inputs is not valid.'), { statusCode: 400 }),
      entity,
    );
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.message).toBe('One of the request inputs is not valid.');
    expect(
      toStoreError(new RestError('x', { statusCode: 403, code: 'AuthenticationFailed' }), entity),
    ).toBeInstanceOf(ConfigurationError);
  });

  it('wraps anything else in a StoreError that keeps the cause and status', () => {
    const original = new RestError(odata('ServerBusy', 'The server is busy.'), { statusCode: 503 });
    const mapped = toStoreError(original, entity) as StoreError;
    expect(mapped).toBeInstanceOf(StoreError);
    expect(mapped.status).toBe(503);
    expect(mapped.cause).toBe(original);
    const unknown = new Error('boom');
    expect(toStoreError(unknown, entity).cause).toBe(unknown);
  });

  it('names the endpoint when the service cannot be reached', () => {
    const mapped = toStoreError(new RestError('connect ECONNREFUSED', { code: 'ECONNREFUSED' }), {
      table: 'Users',
      endpoint: 'http://127.0.0.1:10002/devstoreaccount1',
    });
    expect(mapped.message).toMatch(/Could not reach Azure Tables at http:\/\/127\.0\.0\.1:10002/);
  });
});

describe('toTransactionError', () => {
  it('carries the service message without its index, the code, the status and the failing index', () => {
    const error = toTransactionError(
      new RestError('1:The specified entity already exists.\nRequestId:abc', {
        statusCode: 409,
        code: 'EntityAlreadyExists',
      }),
      { table: 'Items' },
    ) as TransactionError;
    expect(error).toBeInstanceOf(TransactionError);
    expect(error).toMatchObject({
      message: 'The specified entity already exists.',
      code: 'EntityAlreadyExists',
      status: 409,
      failedIndex: 1,
    });
  });

  it("falls back to 'Transaction Failed' without a service message", () => {
    expect(toTransactionError(new RestError('', { statusCode: 400 }), { table: 'Items' }).message).toBe(
      'Transaction Failed',
    );
    expect(toTransactionError(new Error('socket hang up'), { table: 'Items' })).toMatchObject({
      message: 'Transaction Failed',
    });
  });
});
