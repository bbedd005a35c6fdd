import { getAnalysis } from '@receipts/core';
import { getAnalysisQuery } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** GET /api/getAnalysis?userId=&receiptId=: the analysis JSON as the analyzer wrote it. */
export const handler = defineRoute({
  name: 'getAnalysis',
  auth: 'user',
  input: (event) => queryOf(event, getAnalysisQuery),
  run: ({ services, identity }, query) => getAnalysis(services, identity, query),
});
