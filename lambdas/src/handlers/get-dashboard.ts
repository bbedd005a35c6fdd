import { dashboardQuery } from '@receipts/core/contract/dashboard';
import { getDashboard } from '@receipts/core';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/**
 * GET /api/dashboard?userId=&period=month|quarter|year&today=YYYY-MM-DD: the signed-in user's Home
 * figures (spending against the previous period, 12 months, top lists, categories, latest receipts).
 */
export const handler = defineRoute({
  name: 'dashboard',
  auth: 'user',
  input: (event) => queryOf(event, dashboardQuery),
  run: ({ services, identity }, query) => getDashboard(services, identity, query),
});
