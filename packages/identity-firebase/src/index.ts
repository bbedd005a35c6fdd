export {
  FirebaseIdentityVerifier,
  assertEmulatorNotInCloud,
  type FirebaseIdentityVerifierOptions,
} from './firebase-identity-verifier';
