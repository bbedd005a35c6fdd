import { sweepScans, type SweepResult } from '@receipts/core';
import type { Context } from 'aws-lambda';
import { bindInvocation, getServices } from '../composition';

/**
 * The scheduled sweeper of the scan queue (an EventBridge rule every few minutes): queues again the
 * scans left queued with no job and fails those stuck in 'Analyzing' past their lease.
 */
export async function handler(_event?: unknown, context?: Context): Promise<SweepResult> {
  const services = await getServices();
  bindInvocation(services, context);
  return sweepScans(services);
}
