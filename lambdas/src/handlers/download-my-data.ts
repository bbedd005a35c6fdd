import { downloadMyData, exportKey } from '@receipts/core';
import { downloadMyDataQuery, type DownloadMyDataLink } from '@receipts/core/contract/my-data';
import { bufferedRoute, defineRoute } from '../http/route';
import { queryOf } from '../http/request';
import { json, streamedDownload } from '../http/responses';
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
  respond: ({ stream, fileName }) => streamedDownload(stream, 'application/zip', fileName),
});

/** What a person reads when their data is over the size one Lambda answer can carry. */
export const DOWNLOAD_TOO_LARGE_MESSAGE =
  'Your data with its images is larger than one download from this site can carry (about 4 MB). ' +
  'Download it without the images instead ("Download without images"); your receipts, items, ' +
  'merchants and taxes are all in that file, and each image can still be opened in the app.';

type LambdaDownload = { link: DownloadMyDataLink } | { stream: AsyncIterable<Uint8Array>; fileName: string };

/**
 * The same download on Lambda. With an export store (S3) the ZIP is written to
 * `exports/<uid>/<time>.zip` as it is made and the answer is `{ url, expiresAt }`, a short-lived link
 * that downloads it, whatever its size. Without one the ZIP is answered as it is (see `handler`).
 */
const lambdaRoute = defineRoute({
  name: 'downloadMyData',
  auth: 'user',
  input: (event) => queryOf(event, downloadMyDataQuery),
  run: async ({ services, identity }, query): Promise<LambdaDownload> => {
    const data = await downloadMyData(services, identity, query);
    const stream = zipStream(data.files);
    const exports = services.exports;
    if (!exports) return { stream, fileName: data.fileName };
    const now = new Date();
    const key = exportKey(identity.uid, now);
    await exports.save(key, stream, 'application/zip');
    const url = await exports.link(key, data.fileName);
    services.logger.info('data export written for a link', { key });
    return { link: { url, expiresAt: new Date(now.getTime() + exports.linkSeconds * 1000).toISOString() } };
  },
  respond: (answer, event) =>
    'link' in answer
      ? json(200, answer.link, event)
      : streamedDownload(answer.stream, 'application/zip', answer.fileName),
});

/**
 * The Lambda handler: API Gateway's HTTP API takes a Lambda's answer in one piece (at most 6 MB, and
 * a ZIP travels base64-encoded in it). With an export store the answer is a link to the ZIP in S3;
 * without one the archive is joined before it is answered, and one over the limit is a 413 that says
 * how to get the data without the images. The local server streams it (see `streamHandler`).
 */
export const handler = bufferedRoute(lambdaRoute, DOWNLOAD_TOO_LARGE_MESSAGE);
