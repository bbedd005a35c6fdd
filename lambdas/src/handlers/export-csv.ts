import { exportCsvQuery } from '@receipts/core/contract/reports';
import { exportFileName, exportReportCsv } from '@receipts/core';
import { bufferedRoute, defineRoute } from '../http/route';
import { queryOf } from '../http/request';
import { streamedDownload } from '../http/responses';

/**
 * GET /api/exportCsv?userId=&table=receipts|items&sort=&dir=&<the report filters>: the rows of the
 * receipts or items table under the filter as a CSV download, written out as it is made.
 */
export const streamHandler = defineRoute({
  name: 'exportCsv',
  auth: 'user',
  input: (event) => queryOf(event, exportCsvQuery),
  run: async ({ services, identity }, query) => ({
    stream: await exportReportCsv(services, identity, query),
    fileName: exportFileName(query.table, new Date()),
  }),
  respond: ({ stream, fileName }) => streamedDownload(stream, 'text/csv; charset=utf-8', fileName),
});

/** What a person reads when an export is over the size one Lambda answer can carry. */
export const EXPORT_TOO_LARGE_MESSAGE =
  'This export is larger than one download can carry (6 MB, compressed when your browser accepts it). ' +
  'Narrow it with a date range (From and To) or another filter, and download it in parts.';

/**
 * The Lambda handler: API Gateway's HTTP API takes a Lambda's answer in one piece (at most 6 MB), so
 * the CSV is joined, and gzipped when the client accepts it, before it is answered; an export still
 * over the limit is a 413 that says how to download it in parts. The local server streams it (see
 * `streamHandler`).
 */
export const handler = bufferedRoute(streamHandler, EXPORT_TOO_LARGE_MESSAGE);
