/**
 * Entry point of `cdk synth` / `cdk deploy` (see cdk.json). A configuration mistake ends the run with
 * its message, not a stack trace.
 */
import { App } from 'aws-cdk-lib';
import { isAppError } from '@receipts/core';
import { buildReceiptsApp } from '../lib/receipts-app';

const app = new App();
try {
  buildReceiptsApp(app);
} catch (error) {
  if (isAppError(error)) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
app.synth();
