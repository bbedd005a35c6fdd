import { getReceiptDetail } from '@receipts/core';
import { receiptDetailQuery } from '@receipts/core/contract/details';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/receiptDetail?userId=&receiptId=: one receipt with its items and merchant, for its screen. */
export const handler = defineRoute({
  name: 'receiptDetail',
  auth: 'user',
  input: (event) => queryOf(event, receiptDetailQuery),
  run: ({ services, identity }, query) => getReceiptDetail(services, identity, query),
});
