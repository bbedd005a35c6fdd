import { useEffect, useState } from 'react';
import { Field, ProgressBar, makeStyles, tokens } from '@fluentui/react-components';

/** Where the bar starts (spec §9: progress 30) and how far it may creep while waiting. */
const START = 30;
const CEILING = 90;

const useStyles = makeStyles({
  error: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
});

export interface TextProgressBarProps {
  /** e.g. 'Processing receipt' */
  label: string;
  /** When set, the bar is replaced by the error, in words for the person. */
  error?: string | null;
}

/** A labelled progress bar with a seconds counter that ticks once per second (spec §2, §9). */
export function TextProgressBar({ label, error }: TextProgressBarProps) {
  const styles = useStyles();
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (error) return;
    const timer = window.setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => window.clearInterval(timer);
  }, [error]);

  if (error) {
    return (
      <p role="alert" className={styles.error}>
        {error}
      </p>
    );
  }
  const progress = Math.min(START + seconds * 2, CEILING);
  return (
    <Field label={`${label} ${seconds}s`} validationState="none" aria-live="polite">
      <ProgressBar value={progress} max={100} thickness="large" aria-label={label} />
    </Field>
  );
}
