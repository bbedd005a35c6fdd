import { useRef, useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUpload24Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { errorMessage } from '../../../lib/api-client';
import { useUploadReceipt } from '../api/upload-receipt';
import { prepareFile } from '../utils/image';
import { UploadStatus } from './upload-status';

const useStyles = makeStyles({
  column: { display: 'grid', gap: tokens.spacingVerticalM, maxWidth: '480px' },
  input: { position: 'absolute', width: '1px', height: '1px', opacity: 0, overflow: 'hidden' },
});

/** The plain file picker (spec §2 Camera, p other than Camera). It does nothing when no file is chosen. */
export function FilePicker({ userId }: { userId: string }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadReceipt();
  const [preparing, setPreparing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    setPreparing(true);
    try {
      const prepared = await prepareFile(file);
      await upload.mutateAsync({ userId, ...prepared });
      navigate('/');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPreparing(false);
    }
  }

  const busy = preparing || upload.isPending;
  return (
    <div className={styles.column}>
      <Text>Pick a photo or PDF of a receipt. Large photos are made smaller before they are sent.</Text>
      <input
        ref={input}
        id="receipt-file"
        className={styles.input}
        type="file"
        accept="image/*,application/pdf"
        onChange={onChange}
        disabled={busy}
        aria-label="Receipt image file"
      />
      <Button
        appearance="primary"
        size="large"
        icon={<ArrowUpload24Regular />}
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        Choose a receipt image
      </Button>
      <UploadStatus busy={busy} error={error} onDismissError={() => setError(null)} />
    </div>
  );
}
