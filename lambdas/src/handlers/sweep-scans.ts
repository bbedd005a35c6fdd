import { sweepScans, type SweepResult } from '@receipts/core';
import { getServices } from '../composition';

/**
 * The scheduled sweeper of the scan queue (an EventBridge rule every few minutes): queues again the
 * scans left queued with no job and fails those stuck in 'Analyzing' past their lease.
 */
export async function handler(): Promise<SweepResult> {
  const services = await getServices();
  return sweepScans(services);
}
