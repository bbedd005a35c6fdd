import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { closePendingUploads } from '../lib/pending-uploads';

// Firebase is replaced by a fake in component tests (see testing/fake-firebase.ts); the real SDK is
// exercised by the browser tests against the Auth emulator.
vi.mock('../lib/firebase', async () => (await import('./fake-firebase')).fakeFirebaseModule);

// A lazy route's first load (its modules transformed on first import) can take over a second on a
// busy 2-core machine: findBy and waitFor wait up to 5 s (WEB_TEST_WAIT_MS sets another limit). A
// passing test never waits that long; only a failing one does.
configure({ asyncUtilTimeout: Number(process.env.WEB_TEST_WAIT_MS ?? 5000) });

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  // Each test starts with nothing kept on the device (jsdom has no IndexedDB: fake-indexeddb is one).
  await closePendingUploads();
  globalThis.indexedDB = new IDBFactory();
});
