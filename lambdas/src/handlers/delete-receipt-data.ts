import { deleteReceiptData } from '@receipts/core';
import { deleteReceiptQuery } from '@receipts/core/contract/requests';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** DELETE /api/deleteReceiptData?receiptId=&userId=&blobName=: the receipt and all its data. */
export const handler = defineRoute({
  name: 'deleteReceiptData',
  auth: 'user',
  input: (event) => queryOf(event, deleteReceiptQuery),
  run: ({ services, identity }, query) => deleteReceiptData(services, identity, query),
});
