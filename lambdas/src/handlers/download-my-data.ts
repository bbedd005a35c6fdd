import { downloadMyData, downloadMyDataQuery } from '@receipts/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { defineRoute } from '../http/route';
import { queryOf } from '../http/request';
import { bufferedResult, streamedBinaryDownload, type HttpResult } from '../http/responses';
import { zipStream } from '../http/zip';

/**
 * GET /api/downloadMyData?userId=&images=: every receipt, item, merchant and tax of the caller as
 * JSON and CSV, and the stored images and analysis JSON, as a ZIP written out as it is made.
 */
export const streamHandler = defineRoute({
  name: 'downloadMyData',
  auth: 'user',
  input: (event) => queryOf(event, downloadMyDataQuery),
  run: async ({ services, identity }, query) => {
    const data = await downloadMyData(services, identity, query);
    return { stream: zipStream(data.files), fileName: data.fileName };
  },
  respond: ({ stream, fileName }) => streamedBinaryDownload(stream, 'application/zip', fileName),
});

/** What a person reads when their data is over the size one Lambda answer can carry. */
export const DOWNLOAD_TOO_LARGE_MESSAGE =
  'Your data with its images is larger than one download from this site can carry (about 4 MB). ' +
  'Download it without the images instead ("Download without images"); your receipts, items, ' +
  'merchants and taxes are all in that file, and each image can still be opened in the app.';

/**
 * The Lambda handler: API Gateway's HTTP API takes a Lambda's answer in one piece (at most 6 MB, and
 * a ZIP travels base64-encoded in it), so the archive is joined before it is answered, and one over
 * the limit is a 413 that says how to get the data without the images. The local server streams it
 * (see `streamHandler`).
 */
export async function handler(event: APIGatewayProxyEventV2): Promise<HttpResult> {
  return bufferedResult(await streamHandler(event), { event, tooLargeMessage: DOWNLOAD_TOO_LARGE_MESSAGE });
}
