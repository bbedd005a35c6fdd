import { silentLogger } from '@receipts/core';
import { prepareWeb } from '../../../dev/src/stack';

/**
 * Global setup of the browser suites: builds the web app once, before any file starts its stack.
 * Files run side by side (one per worker); a stack that found the build out of date would build it
 * while another stack serves it.
 */
export default async function setup(): Promise<void> {
  if (!(await prepareWeb(true, silentLogger)))
    throw new Error('The web app did not build (npm run build:web).');
}
