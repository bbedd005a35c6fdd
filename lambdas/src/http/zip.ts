import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { ExportFile } from '@receipts/core';

/** Compression level of the text files (JSON, CSV): quick, and most of the gain. */
const DEFLATE_LEVEL = 6;

/**
 * The files as one ZIP archive, made as it is read: each file is added when the reader asks for
 * more, and its bytes leave as soon as they are encoded, so the archive is never held whole (only
 * the file being added is). Text is deflated; images are stored as they are (already compressed).
 */
export async function* zipStream(files: AsyncIterable<ExportFile>): AsyncIterable<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  const drain = function* () {
    if (failure) throw failure;
    while (ready.length > 0) yield ready.shift()!;
  };
  const encoder = new TextEncoder();
  for await (const file of files) {
    const entry = file.compress
      ? new ZipDeflate(file.path, { level: DEFLATE_LEVEL })
      : new ZipPassThrough(file.path);
    zip.add(entry);
    entry.push(typeof file.data === 'string' ? encoder.encode(file.data) : file.data, true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}
