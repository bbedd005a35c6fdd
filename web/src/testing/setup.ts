import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

// Firebase is replaced by a fake in component tests (see testing/fake-firebase.ts); the real SDK is
// exercised by the browser tests against the Auth emulator.
vi.mock('../lib/firebase', async () => (await import('./fake-firebase')).fakeFirebaseModule);

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
