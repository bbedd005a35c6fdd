export {
  FirebaseIdentityVerifier,
  assertEmulatorNotInCloud,
  type FirebaseIdentityVerifierOptions,
} from './firebase-identity-verifier';
export type { ServiceAccountKey } from './account-deleter';
export {
  FIREBASE_ID_TOKEN_KEYS_URL,
  idTokenIssuer,
  verifyIdToken,
  type IdTokenCheck,
  type IdTokenClaims,
} from './id-token';
