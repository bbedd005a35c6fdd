import { useRef, useState, type ChangeEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUpload24Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { duplicateOf, errorMessage } from '../../../lib/api-client';
import { pageAfter, useUploadReceipt, type UploadOutcome } from '../api/upload-receipt';
import { prepareFile } from '../utils/image';
import { UploadStatus, receiptPage } from './upload-status';

const useStyles = makeStyles({
  column: { display: 'grid', gap: tokens.spacingVerticalM, maxWidth: '480px' },
  input: { position: 'absolute', width: '1px', height: '1px', opacity: 0, overflow: 'hidden' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: tokens.spacingVerticalS },
  file: {
    display: 'grid',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
    overflowWrap: 'anywhere',
  },
  failed: { color: tokens.colorPaletteRedForeground1 },
});

type FileState =
  | { kind: 'waiting' }
  | { kind: 'sending' }
  | { kind: 'done'; outcome: UploadOutcome }
  | { kind: 'failed'; message: string; duplicateOf: string | null };

interface PickedFile {
  name: string;
  state: FileState;
}

function describe(state: FileState): string {
  switch (state.kind) {
    case 'waiting':
      return 'Waiting its turn';
    case 'sending':
      return 'Uploading…';
    case 'done':
      return state.outcome.kind === 'kept' ? 'Kept on this device: waiting for connection' : 'Uploaded';
    case 'failed':
      return state.message;
  }
}

/** One row per picked file: its name, a bar and what became of it (the server's words when refused). */
function FileList({ files }: { files: PickedFile[] }) {
  const styles = useStyles();
  const finished = files.filter((f) => f.state.kind === 'done' || f.state.kind === 'failed').length;
  return (
    <>
      <Text aria-live="polite">
        {finished} of {files.length} files done
      </Text>
      <ul className={styles.list} aria-label="Picked files">
        {files.map((file, index) => (
          <li key={`${index}-${file.name}`} className={styles.file}>
            <Text weight="semibold">{file.name}</Text>
            <ProgressBar
              aria-label={`Upload of ${file.name}`}
              thickness="large"
              value={file.state.kind === 'sending' ? undefined : file.state.kind === 'waiting' ? 0 : 1}
              color={file.state.kind === 'failed' ? 'error' : 'brand'}
            />
            <Text
              className={file.state.kind === 'failed' ? styles.failed : undefined}
              role={file.state.kind === 'failed' ? 'alert' : undefined}
            >
              {describe(file.state)}
            </Text>
            {file.state.kind === 'failed' && file.state.duplicateOf && (
              <RouterLink to={receiptPage(file.state.duplicateOf)}>Open the receipt</RouterLink>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * The plain file picker (spec §2 Camera, p other than Camera). Several files may be picked at once:
 * each is its own upload and scan, sent one after the other, with its own progress and error. It does
 * nothing when no file is chosen. With no connection, the files are kept on the device for later.
 */
export function FilePicker({ userId }: { userId: string }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadReceipt();
  const [busy, setBusy] = useState(false);
  const [files, setFiles] = useState<PickedFile[]>([]);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    if (picked.length === 0) return;
    const states: PickedFile[] = picked.map((file) => ({ name: file.name, state: { kind: 'waiting' } }));
    const show = (index: number, state: FileState) => {
      states[index] = { ...states[index]!, state };
      setFiles([...states]);
    };
    setFiles([...states]);
    setBusy(true);
    const outcomes: UploadOutcome[] = [];
    for (const [index, file] of picked.entries()) {
      show(index, { kind: 'sending' });
      try {
        const outcome = await upload.mutateAsync({ userId, ...(await prepareFile(file)), label: file.name });
        outcomes.push(outcome);
        show(index, { kind: 'done', outcome });
      } catch (failure) {
        show(index, { kind: 'failed', message: errorMessage(failure), duplicateOf: duplicateOf(failure) });
      }
    }
    setBusy(false);
    // All in: on to Home (or, with some kept for later, to the list that shows them waiting).
    if (outcomes.length === picked.length) {
      navigate(outcomes.some((o) => o.kind === 'kept') ? pageAfter({ kind: 'kept' }) : '/');
    }
  }

  const single = files.length === 1 ? files[0]! : null;
  const singleError = single?.state.kind === 'failed' ? single.state.message : null;
  const singleDuplicate = single?.state.kind === 'failed' ? single.state.duplicateOf : null;
  return (
    <div className={styles.column}>
      <Text>
        Pick photos or PDFs of receipts (several at once if you like: each is its own receipt). Large photos
        are made smaller before they are sent.
      </Text>
      <input
        ref={input}
        id="receipt-file"
        className={styles.input}
        type="file"
        multiple
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
        Choose receipt images
      </Button>
      {files.length > 1 && <FileList files={files} />}
      {files.length > 1 && !busy && <Button onClick={() => setFiles([])}>Clear the list</Button>}
      {single && (
        <UploadStatus
          busy={busy}
          error={singleError}
          duplicateOf={singleDuplicate}
          onDismissError={() => setFiles([])}
        />
      )}
    </div>
  );
}
