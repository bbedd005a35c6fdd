import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { closePendingUploads } from '../lib/pending-uploads';

// Firebase is replaced by a fake in component tests (see testing/fake-firebase.ts); the real SDK is
// exercised by the browser tests against the Auth emulator.
vi.mock('../lib/firebase', async () => (await import('./fake-firebase')).fakeFirebaseModule);

// On a loaded machine a lazy route can take over a second to arrive: WEB_TEST_WAIT_MS waits longer.
if (process.env.WEB_TEST_WAIT_MS) configure({ asyncUtilTimeout: Number(process.env.WEB_TEST_WAIT_MS) });

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
  // Each test starts with nothing kept on the device (jsdom has no IndexedDB: fake-indexeddb is one).
  await closePendingUploads();
  globalThis.indexedDB = new IDBFactory();
});
