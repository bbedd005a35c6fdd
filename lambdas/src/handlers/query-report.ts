import { queryReport } from '@receipts/core';
import { reportQuery } from '@receipts/core/contract/reports';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/**
 * GET /api/report?userId=&table=&sort=&dir=&pageSize=&pageToken=&q=&from=&to=&currency=&category=&merchant=&brand=&corporation=:
 * one page of one of the signed-in user's report tables.
 */
export const handler = defineRoute({
  name: 'report',
  auth: 'user',
  input: (event) => queryOf(event, reportQuery),
  run: ({ services, identity }, query) => queryReport(services, identity, query),
});
