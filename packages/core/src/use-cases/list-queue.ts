import type { ListQueueAnswer } from '../contract/requests';
import type { Identity } from '../ports';
import { imageUrlFor } from '../repository/keys';
import { repositories } from '../repository/repositories';
import { queueToEntry } from '../repository/rows';
import { assertOwnUserId, type AppDeps } from './context';

/**
 * The user's pending and failed scans (spec §7 GET /api/listQueue). Polled every 2 s, so each entry
 * carries the URL of its image rather than the image.
 */
export async function listQueue(
  deps: Pick<AppDeps, 'store'>,
  identity: Identity,
  input: { userId: string },
): Promise<ListQueueAnswer> {
  assertOwnUserId(identity, input.userId);
  const rows = await repositories(deps.store).scans.listQueue(identity.uid);
  return rows.map((row) => queueToEntry(row, imageUrlFor(row.userId, row.fileName)));
}
