import type { DashboardAnswer, DashboardQuery } from '../contract/dashboard';
import type { Identity } from '../ports';
import { dashboardOf } from './dashboard';
import { nowOf, type AppDeps } from '../use-cases/context';
import { ownReportIndex } from './report-state';

/**
 * Home's figures for the signed-in user (GET /api/dashboard) for the period holding `at` (an earlier
 * month, quarter or year) or else `today`, from the same cached report index as
 * GET /api/report: one point read when this process holds the index of the user's data version.
 * @throws ForbiddenError when `userId` is not the caller's
 */
export async function getDashboard(
  deps: Pick<AppDeps, 'store' | 'blobs' | 'logger' | 'reportCache' | 'now'>,
  identity: Identity,
  input: DashboardQuery,
): Promise<DashboardAnswer> {
  const index = await ownReportIndex(deps, identity, input.userId);
  const today = input.today ?? nowOf(deps).toISOString().slice(0, 10);
  const answer = dashboardOf(index, input.period, input.at ?? today);
  return { ...answer, isCurrent: answer.current.from <= today && today <= answer.current.to };
}
