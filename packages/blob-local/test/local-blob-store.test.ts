import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '@receipts/core';
import { LocalBlobStore } from '../src';

const text = (value: string) => new TextEncoder().encode(value);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('LocalBlobStore', () => {
  let parent: string;
  let root: string;
  let store: LocalBlobStore;

  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), 'blob-local-'));
    root = join(parent, 'blobs');
    store = new LocalBlobStore({ root });
  });

  afterEach(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('returns the bytes and content type that were put, and replaces them on a second put', async () => {
    const image = new Uint8Array([0xff, 0xd8, 0xff, 0x00, 0x10, 0x80]);
    await store.put('user-1/receipt.jpg', image, 'image/jpeg');

    const first = await store.get('user-1/receipt.jpg');
    expect(first?.contentType).toBe('image/jpeg');
    expect(Array.from(first!.bytes)).toEqual(Array.from(image));
    expect(first!.bytes).toBeInstanceOf(Uint8Array);

    await store.put('user-1/receipt.jpg', text('%PDF-1.7'), 'application/pdf');
    const second = await store.get('user-1/receipt.jpg');
    expect(second?.contentType).toBe('application/pdf');
    expect(decode(second!.bytes)).toBe('%PDF-1.7');
  });

  it('keeps the blob as a plain file under root', async () => {
    await store.put('user-1/a.png', text('png bytes'), 'image/png');
    expect(await readdir(join(root, 'user-1'))).toEqual(['a.png']);
  });

  it('answers null for a missing blob, also before anything was written', async () => {
    expect(await store.get('user-1/none.jpg')).toBeNull();
    await store.put('user-1/a.jpg', text('a'), 'image/jpeg');
    expect(await store.get('user-1/none.jpg')).toBeNull();
    expect(await store.get('user-1')).toBeNull(); // a folder of blobs is not a blob
    expect(await store.get('user-1/a.jpg/deeper')).toBeNull();
  });

  it('deletes a blob, and deleting a missing one is not an error', async () => {
    await store.put('user-1/a.jpg', text('a'), 'image/jpeg');
    await store.delete('user-1/a.jpg');
    expect(await store.get('user-1/a.jpg')).toBeNull();
    expect(await store.list('user-1/')).toEqual([]);
    await expect(store.delete('user-1/a.jpg')).resolves.toBeUndefined();
    await expect(store.delete('user-2/never.jpg')).resolves.toBeUndefined();
  });

  it("lists only the keys under a prefix, sorted, and never the store's own files", async () => {
    await store.put('user-2/b.jpg', text('b'), 'image/jpeg');
    await store.put('user-1/b.jpg', text('b'), 'image/jpeg');
    await store.put('user-1/a.jpg', text('a'), 'image/jpeg');
    await store.put('user-1/analysis/a.json', text('{}'), 'application/json');
    await store.put('user-10/c.jpg', text('c'), 'image/jpeg');

    expect(await store.list('user-1/')).toEqual(['user-1/a.jpg', 'user-1/analysis/a.json', 'user-1/b.jpg']);
    expect(await store.list('user-1/a')).toEqual(['user-1/a.jpg', 'user-1/analysis/a.json']);
    expect(await store.list('user-1')).toEqual([
      'user-1/a.jpg',
      'user-1/analysis/a.json',
      'user-1/b.jpg',
      'user-10/c.jpg',
    ]);
    expect(await store.list('')).toHaveLength(5);
    expect(await store.list('nobody/')).toEqual([]);
  });

  it('refuses keys that could escape root, and writes nothing for them', async () => {
    const bad = [
      '',
      '../outside.jpg',
      'user-1/../../outside.jpg',
      '/etc/passwd',
      'user-1\\..\\outside.jpg',
      'user-1/a\0.jpg',
      'user-1//a.jpg',
      'user-1/',
      './a.jpg',
      '.meta/user-1/a.jpg.json',
      '.tmp/x',
    ];
    for (const key of bad) {
      await expect(store.put(key, text('x'), 'image/jpeg'), key).rejects.toBeInstanceOf(ValidationError);
      await expect(store.get(key), key).rejects.toBeInstanceOf(ValidationError);
      await expect(store.delete(key), key).rejects.toBeInstanceOf(ValidationError);
    }
    for (const prefix of ['../', 'user-1/../../', '/etc/', 'a\\b', '.meta/']) {
      await expect(store.list(prefix), prefix).rejects.toBeInstanceOf(ValidationError);
    }
    expect(await readdir(parent)).toEqual([]);
  });

  it('refuses a key that clashes with a folder of other blobs, keeping them', async () => {
    await store.put('user-1/a.jpg', text('a'), 'image/jpeg');
    await expect(store.put('user-1', text('x'), 'image/jpeg')).rejects.toBeInstanceOf(ValidationError);
    await expect(store.put('user-1/a.jpg/b.jpg', text('x'), 'image/jpeg')).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(decode((await store.get('user-1/a.jpg'))!.bytes)).toBe('a');
  });

  it('derives the content type from the name when a file was placed by hand', async () => {
    await mkdir(join(root, 'user-1'), { recursive: true });
    await writeFile(join(root, 'user-1', 'scan.PNG'), 'png');
    await writeFile(join(root, 'user-1', 'notes.bin'), 'bin');

    expect((await store.get('user-1/scan.PNG'))?.contentType).toBe('image/png');
    expect((await store.get('user-1/notes.bin'))?.contentType).toBe('application/octet-stream');
    expect(await store.list('user-1/')).toEqual(['user-1/notes.bin', 'user-1/scan.PNG']);
  });

  it('never lets a reader see half a file while a large blob is replaced, and leaves no temp files', async () => {
    const size = 4 * 1024 * 1024;
    await store.put('user-1/big.jpg', new Uint8Array(size).fill(0x61), 'image/jpeg');

    const writes = Array.from({ length: 4 }, (_, index) =>
      store.put('user-1/big.jpg', new Uint8Array(size).fill(0x62 + index), 'image/jpeg'),
    );
    const reads: Promise<void>[] = [];
    for (let index = 0; index < 20; index++) {
      reads.push(
        store.get('user-1/big.jpg').then((blob) => {
          expect(blob!.bytes.length).toBe(size);
          const first = blob!.bytes[0];
          expect(blob!.bytes.every((byte) => byte === first)).toBe(true);
        }),
      );
    }
    await Promise.all([...writes, ...reads]);

    const final = (await store.get('user-1/big.jpg'))!.bytes;
    expect([0x62, 0x63, 0x64, 0x65]).toContain(final[0]);
    expect(final.every((byte) => byte === final[0])).toBe(true);
    expect(await readdir(join(root, '.tmp'))).toEqual([]);
    expect(existsSync(join(root, 'user-1', 'big.jpg'))).toBe(true);
  });

  it('stores the same key from two stores on one root consistently', async () => {
    const other = new LocalBlobStore({ root });
    await store.put('user-1/a.webp', text('webp'), 'image/webp');
    expect(await other.get('user-1/a.webp')).toMatchObject({ contentType: 'image/webp' });
  });
});
