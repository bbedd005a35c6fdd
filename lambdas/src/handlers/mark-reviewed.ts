import { markReviewed } from '@receipts/core';
import { markReviewedBody } from '@receipts/core/contract/edits';
import { defineRoute } from '../http/route';
import { jsonBodyOf } from '../http/request';

/** POST /api/markReviewed: the receipt leaves the review queue. */
export const handler = defineRoute({
  name: 'markReviewed',
  auth: 'user',
  input: (event) => jsonBodyOf(event, markReviewedBody),
  run: ({ services, identity }, input) => markReviewed(services, identity, input),
});
