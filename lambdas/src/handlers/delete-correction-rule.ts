import { deleteCorrectionRule } from '@receipts/core';
import { deleteCorrectionRuleQuery } from '@receipts/core/contract/corrections';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';

/** DELETE /api/deleteCorrectionRule?userId=&ruleId=: one rule learnt from the caller's corrections. */
export const handler = defineRoute({
  name: 'deleteCorrectionRule',
  auth: 'user',
  input: (event) => queryOf(event, deleteCorrectionRuleQuery),
  run: ({ services, identity }, query) => deleteCorrectionRule(services, identity, query),
});
