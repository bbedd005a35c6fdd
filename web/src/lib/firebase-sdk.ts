/**
 * The parts of the Firebase SDK the app uses, by name, so the bundler keeps only those: loaded as
 * one chunk by ./firebase when sign-in or a token is first needed, never with the first page.
 * `initializeAuth` (not `getAuth`) so that only the persistence the app uses is included; the
 * popup/redirect resolver is passed only to the Google redirect calls.
 */
export { getApps, initializeApp } from 'firebase/app';
export {
  browserLocalPersistence,
  browserPopupRedirectResolver,
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getRedirectResult,
  GoogleAuthProvider,
  indexedDBLocalPersistence,
  initializeAuth,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signInWithRedirect,
  signOut,
  updateProfile,
} from 'firebase/auth';
