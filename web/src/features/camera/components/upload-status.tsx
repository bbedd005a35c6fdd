import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { TextProgressBar } from '../../../components/text-progress-bar';

const useStyles = makeStyles({
  box: {
    display: 'grid',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow8,
  },
});

export interface UploadStatusProps {
  busy: boolean;
  error: string | null;
  onDismissError: () => void;
}

/** 'Processing receipt' with a seconds counter while an upload runs; '[ Uh oh ... ]' when it failed. */
export function UploadStatus({ busy, error, onDismissError }: UploadStatusProps) {
  const styles = useStyles();
  if (!busy && !error) return null;
  return (
    <div className={styles.box}>
      <TextProgressBar label="Processing receipt" error={error} />
      {error && <Button onClick={onDismissError}>Try again</Button>}
    </div>
  );
}
