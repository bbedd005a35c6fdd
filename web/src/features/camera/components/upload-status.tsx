import { Link as RouterLink } from 'react-router';
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
  /** The receipt the upload duplicates: a link to it instead of "Try again". */
  duplicateOf?: string | null;
  onDismissError: () => void;
}

/** The receipt page of a receipt id. */
export const receiptPage = (receiptId: string) => `/Receipt?receiptId=${encodeURIComponent(receiptId)}`;

/**
 * 'Processing receipt' with a seconds counter while an upload runs; the reason when it failed, with
 * "Try again", or, for a receipt uploaded before, the way to it.
 */
export function UploadStatus({ busy, error, duplicateOf, onDismissError }: UploadStatusProps) {
  const styles = useStyles();
  if (!busy && !error) return null;
  return (
    <div className={styles.box}>
      <TextProgressBar label="Processing receipt" error={error} />
      {error && duplicateOf && <RouterLink to={receiptPage(duplicateOf)}>Open the receipt</RouterLink>}
      {error && !duplicateOf && <Button onClick={onDismissError}>Try again</Button>}
    </div>
  );
}
