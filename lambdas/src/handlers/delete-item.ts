import { deleteItem } from '@receipts/core';
import { deleteItemQuery } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** DELETE /api/deleteItem?userId=&receiptId=&itemId=&etag=: one item of a receipt. */
export const handler = defineRoute({
  name: 'deleteItem',
  auth: 'user',
  input: (event) => queryOf(event, deleteItemQuery),
  run: ({ services, identity }, input) => deleteItem(services, identity, input),
});
