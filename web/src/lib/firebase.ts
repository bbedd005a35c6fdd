import type { FirebaseApp } from 'firebase/app';
import type * as FirebaseSdk from './firebase-sdk';
import type { Auth, User as FirebaseUser } from 'firebase/auth';
import type { AppConfig } from '../config/env';

/** The signed-in person as the app needs them. */
export interface SignedInUser {
  uid: string;
  email: string;
  displayName: string | null;
}

interface Loaded {
  app: FirebaseApp;
  auth: Auth;
  sdk: typeof FirebaseSdk;
}

let config: AppConfig | null = null;
let loading: Promise<Loaded> | null = null;

/** Remembers the configuration; the SDK itself loads on first use, so the first page stays small. */
export function configureFirebase(appConfig: AppConfig): void {
  config = appConfig;
  loading = null;
}

/** The configuration given to {@link configureFirebase}. */
export function firebaseConfig(): AppConfig {
  if (!config) throw new Error('Firebase is used before /config.json was read.');
  return config;
}

function load(): Promise<Loaded> {
  if (!loading) {
    const appConfig = firebaseConfig();
    loading = import('./firebase-sdk').then((sdk) => {
      const app = sdk.getApps()[0] ?? sdk.initializeApp(appConfig.firebase);
      // What getAuth would set up, less what the app does not use: the session is kept in IndexedDB
      // (local storage where there is none), and the redirect resolver goes with the Google calls.
      const auth = sdk.initializeAuth(app, {
        persistence: [sdk.indexedDBLocalPersistence, sdk.browserLocalPersistence],
      });
      if (appConfig.authEmulatorUrl) {
        sdk.connectAuthEmulator(auth, appConfig.authEmulatorUrl, { disableWarnings: true });
      }
      return { app, auth, sdk };
    });
    // A failed load (e.g. the chunk could not be fetched) may be retried by the next call.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

function toUser(user: FirebaseUser): SignedInUser {
  return { uid: user.uid, email: user.email ?? '', displayName: user.displayName };
}

/**
 * Starts fetching the SDK before /config.json is read: a visit with a stored session needs it at
 * once to restore Firebase's own session, so its download runs beside the config's.
 */
export function preloadFirebaseSdk(): void {
  import('./firebase-sdk').catch(() => undefined);
}

/**
 * Starts restoring Firebase's session (the SDK, its stored user, the check of that user with the
 * identity provider, a fresh ID token when the stored one has expired) without waiting for a screen
 * to ask: the first screen's calls then find the token ready rather than waiting for it after the
 * screen has rendered. A failure is left to the first real use, which reports it.
 */
export function startSessionRestore(): void {
  getIdToken().catch(() => undefined);
}

/** The initialised Firebase app (for messaging). */
export async function firebaseApp(): Promise<FirebaseApp> {
  return (await load()).app;
}

/** The current user's ID token, or null when nobody is signed in to Firebase. */
export async function getIdToken(): Promise<string | null> {
  const { auth } = await load();
  await auth.authStateReady();
  return auth.currentUser ? auth.currentUser.getIdToken() : null;
}

/** The Firebase user once Firebase has restored its own session, or null. */
export async function currentUser(): Promise<SignedInUser | null> {
  const { auth } = await load();
  await auth.authStateReady();
  return auth.currentUser ? toUser(auth.currentUser) : null;
}

/** Signs in with email and password. Rejects with the SDK's error (it carries a `code`). */
export async function signInWithEmail(email: string, password: string): Promise<SignedInUser> {
  const { auth, sdk } = await load();
  const credential = await sdk.signInWithEmailAndPassword(auth, email, password);
  return toUser(credential.user);
}

/** Creates an account with a display name and signs it in. */
export async function createAccount(name: string, email: string, password: string): Promise<SignedInUser> {
  const { auth, sdk } = await load();
  const credential = await sdk.createUserWithEmailAndPassword(auth, email, password);
  if (name) await sdk.updateProfile(credential.user, { displayName: name });
  return { ...toUser(credential.user), displayName: name || credential.user.displayName };
}

/**
 * Asks the identity provider to email a password-reset link. Rejects with the SDK's error (it
 * carries a `code`); an unknown address is not an error to show, so as not to tell who has an account.
 */
export async function sendPasswordReset(email: string): Promise<void> {
  const { auth, sdk } = await load();
  try {
    await sdk.sendPasswordResetEmail(auth, email);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'auth/user-not-found') return;
    throw error;
  }
}

/** Set while a Google redirect is under way, so only a return from Google reads its result. */
const REDIRECT_PENDING = 'google_redirect_pending';

/** Leaves the page for Google's sign-in; the result is read by {@link redirectResult} on return. */
export async function signInWithGoogle(): Promise<void> {
  const { auth, sdk } = await load();
  try {
    sessionStorage.setItem(REDIRECT_PENDING, 'true');
  } catch {
    // Without session storage the result is still read on return, just on every visit.
  }
  await sdk.signInWithRedirect(auth, new sdk.GoogleAuthProvider(), sdk.browserPopupRedirectResolver);
}

/**
 * The user who just came back from a Google redirect, or null. Reading it loads Google's helper
 * script, so it is only done on the way back from Google.
 */
export async function redirectResult(): Promise<SignedInUser | null> {
  let pending = true;
  try {
    pending = sessionStorage.getItem(REDIRECT_PENDING) === 'true';
    sessionStorage.removeItem(REDIRECT_PENDING);
  } catch {
    pending = true;
  }
  if (!pending) return null;
  const { auth, sdk } = await load();
  const result = await sdk.getRedirectResult(auth, sdk.browserPopupRedirectResolver);
  return result ? toUser(result.user) : null;
}

export async function signOutUser(): Promise<void> {
  const { auth, sdk } = await load();
  await sdk.signOut(auth);
}

/**
 * Deletes this browser's push token (Firebase Cloud Messaging), so that pushes sent to it no longer
 * arrive; the next sign-in gets a new one. Does nothing where messaging is not supported.
 */
export async function deletePushToken(): Promise<void> {
  const messagingSdk = await import('firebase/messaging');
  if (!(await messagingSdk.isSupported())) return;
  await messagingSdk.deleteToken(messagingSdk.getMessaging(await firebaseApp()));
}
