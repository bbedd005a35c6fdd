import { deleteAccount } from '@receipts/core';
import { deleteAccountBody } from '@receipts/core/contract/my-data';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/**
 * POST /api/deleteAccount { userId, confirmation: 'DELETE' }: the caller's account and every row,
 * image, analysis, queue entry and push token of it.
 */
export const handler = defineRoute({
  name: 'deleteAccount',
  auth: 'user',
  input: (event) => jsonBodyOf(event, deleteAccountBody),
  run: ({ services, identity }, body) => deleteAccount(services, identity, body),
});
