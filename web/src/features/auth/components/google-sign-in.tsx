import { useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button, makeStyles } from '@fluentui/react-components';
import { redirectResult, signInWithGoogle } from '../../../lib/firebase';
import { useCompleteSignIn } from '../hooks/use-sign-in';
import { ErrorText, failureMessage, type ErrorTurn } from './account-form';

const useStyles = makeStyles({
  google: { justifySelf: 'stretch' },
});

/**
 * "Login with Google": starts Google's redirect, and on the way back finishes the sign-in it started.
 * Either failure shows under the button.
 */
export function GoogleSignIn({ showsError = true, onAttempt }: ErrorTurn = {}) {
  const styles = useStyles();
  const completeSignIn = useCompleteSignIn();
  const start = useMutation({ mutationFn: () => signInWithGoogle() });

  // The redirect result can be read only once, so it is read once per visit, with whatever
  // completeSignIn is current when it arrives.
  const complete = useRef(completeSignIn);
  useEffect(() => {
    complete.current = completeSignIn;
  }, [completeSignIn]);
  const {
    mutate: finishRedirect,
    error: redirectError,
    reset: forgetRedirectError,
  } = useMutation({
    mutationFn: async () => {
      const user = await redirectResult();
      if (user) await complete.current(user);
    },
  });
  useEffect(() => finishRedirect(), [finishRedirect]);

  function google() {
    onAttempt?.();
    forgetRedirectError();
    start.mutate();
  }

  return (
    <>
      <Button appearance="primary" size="large" className={styles.google} onClick={google}>
        Login with Google
      </Button>
      <ErrorText
        id="google-error"
        message={showsError ? failureMessage(start.error ?? redirectError) : null}
      />
    </>
  );
}
