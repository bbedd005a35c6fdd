import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ReadingCache } from '@receipts/analyzer-ocr';

/**
 * The OCR engines' readings kept on disk, one JSON file per reading, named by its key (the engine,
 * its settings and the hash of the bytes read). `npm run eval` reads each receipt image once; a rerun
 * parses the stored readings again, so a change to the parsers is measured in seconds, not in
 * minutes of OCR. A change to how images are prepared or read needs a fresh folder (`--no-cache`, or
 * delete it).
 */
export class DiskReadingCache implements ReadingCache {
  /** Readings found in the folder and readings made (and stored) since this cache was opened. */
  hits = 0;
  misses = 0;

  constructor(readonly dir: string) {}

  private file(key: string): string {
    return path.join(this.dir, `${key.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`);
  }

  async get(key: string): Promise<unknown> {
    try {
      const value: unknown = JSON.parse(await readFile(this.file(key), 'utf8'));
      this.hits++;
      return value;
    } catch {
      this.misses++;
      return undefined;
    }
  }

  async set(key: string, value: unknown): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = this.file(key);
    // Written aside and renamed: a run stopped midway never leaves half a reading behind.
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, JSON.stringify(value));
    await rename(partial, file);
  }
}
