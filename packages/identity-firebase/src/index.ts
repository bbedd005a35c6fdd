export {
  FirebaseIdentityVerifier,
  assertEmulatorNotInCloud,
  createFirebaseApp,
  deleteFirebaseApp,
  type FirebaseApp,
  type FirebaseIdentityVerifierOptions,
} from './firebase-identity-verifier';
