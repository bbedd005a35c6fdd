import { vi } from 'vitest';
import type * as firebase from '../lib/firebase';

/** The signed-in Firebase user the fake reports (null: nobody). Tests set it. */
export const fakeAuth: { user: firebase.SignedInUser | null } = { user: null };

/** A stand-in for lib/firebase with the same exports; each function is a spy tests can steer. */
export const fakeFirebaseModule = {
  configureFirebase: vi.fn(),
  firebaseConfig: vi.fn(),
  preloadFirebaseSdk: vi.fn(),
  startSessionRestore: vi.fn(),
  firebaseApp: vi.fn(async () => ({})),
  getIdToken: vi.fn(async () => (fakeAuth.user ? 'test-token' : null)),
  currentUser: vi.fn(async () => fakeAuth.user),
  signInWithEmail: vi.fn(async (email: string) => {
    fakeAuth.user = { uid: 'user-1', email, displayName: 'Test Person' };
    return fakeAuth.user;
  }),
  createAccount: vi.fn(async (name: string, email: string) => {
    fakeAuth.user = { uid: 'user-2', email, displayName: name };
    return fakeAuth.user;
  }),
  sendPasswordReset: vi.fn(async (email: string) => {
    void email;
  }),
  signInWithGoogle: vi.fn(async () => undefined),
  redirectResult: vi.fn(async () => null),
  signOutUser: vi.fn(async () => {
    fakeAuth.user = null;
  }),
  deletePushToken: vi.fn(async () => undefined),
} satisfies Record<keyof typeof firebase, unknown>;
