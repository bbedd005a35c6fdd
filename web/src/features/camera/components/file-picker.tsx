import { Suspense, lazy, useRef, useState, type ChangeEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button, ProgressBar, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUpload24Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { duplicateOf, errorMessage } from '../../../lib/api-client';
import { pageAfter, useUploadReceipt, type UploadOutcome } from '../api/upload-receipt';
import { isUnedited, pageFromFile, scanToDataUrl, type ScanPage } from '../utils/edit-image';
import { prepareFile, receiptFileName } from '../utils/image';
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

// The editor loads only when a photo is checked: the picker itself stays small.
const CapturePreview = lazy(() => import('./capture-preview').then((m) => ({ default: m.CapturePreview })));

type PickPurpose = { kind: 'new' } | { kind: 'add' } | { kind: 'retake'; index: number };

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
  // The picture being checked before it is sent, page by page; null while choosing.
  const [pages, setPages] = useState<ScanPage[] | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  // What the next pick is for: a new receipt, one more page, or a page taken again.
  const purpose = useRef<PickPurpose>({ kind: 'new' });

  /** Sends each prepared file as its own receipt, one after the other, then moves on when all are in. */
  async function send(
    items: { name: string; prepare: () => Promise<{ imgSrc: string; fileName: string }> }[],
  ) {
    const states: PickedFile[] = items.map((item) => ({ name: item.name, state: { kind: 'waiting' } }));
    const show = (index: number, state: FileState) => {
      states[index] = { ...states[index]!, state };
      setFiles([...states]);
    };
    setFiles([...states]);
    setBusy(true);
    const outcomes: UploadOutcome[] = [];
    for (const [index, item] of items.entries()) {
      show(index, { kind: 'sending' });
      try {
        const outcome = await upload.mutateAsync({ userId, ...(await item.prepare()), label: item.name });
        outcomes.push(outcome);
        show(index, { kind: 'done', outcome });
      } catch (failure) {
        show(index, { kind: 'failed', message: errorMessage(failure), duplicateOf: duplicateOf(failure) });
      }
    }
    setBusy(false);
    // All in: on to Home (or, with some kept for later, to the list that shows them waiting).
    if (outcomes.length === items.length) {
      navigate(outcomes.some((o) => o.kind === 'kept') ? pageAfter({ kind: 'kept' }) : '/');
    }
  }

  function pick(next: PickPurpose) {
    purpose.current = next;
    input.current?.click();
  }

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    const forPage = purpose.current;
    purpose.current = { kind: 'new' };
    if (picked.length === 0) return;
    setPageError(null);
    if (forPage.kind !== 'new' && pages) {
      const page = await pageFromFile(picked[0]!);
      if (!page) {
        setPageError('This file cannot be a page of the receipt: pick a photo (JPEG, PNG or WebP).');
        return;
      }
      setPages(
        forPage.kind === 'add' ? [...pages, page] : pages.map((p, i) => (i === forPage.index ? page : p)),
      );
      return;
    }
    // One picture is checked before it is sent; several files (or a PDF) are each their own receipt.
    const single = picked.length === 1 ? await pageFromFile(picked[0]!) : null;
    if (single) {
      setFiles([]);
      setPages([single]);
      return;
    }
    setPages(null);
    await send(picked.map((file) => ({ name: file.name, prepare: () => prepareFile(file) })));
  }

  function uploadPages(scan: readonly ScanPage[]) {
    const first = scan[0]!;
    const name = first.file?.name ?? 'Photo';
    const asPicked = scan.length === 1 && first.file && isUnedited(first) ? first.file : null;
    void send([
      {
        name,
        prepare: async () =>
          asPicked
            ? prepareFile(asPicked)
            : { imgSrc: scanToDataUrl(scan, 0.92), fileName: receiptFileName('image/jpeg') },
      },
    ]);
  }

  const single = files.length === 1 ? files[0]! : null;
  const singleError = single?.state.kind === 'failed' ? single.state.message : null;
  const singleDuplicate = single?.state.kind === 'failed' ? single.state.duplicateOf : null;
  return (
    <div className={styles.column}>
      {!pages && (
        <Text>
          Pick a photo or PDF of a receipt, or several at once (each is its own receipt). A single photo can
          be turned, cropped and given more pages before it is sent.
        </Text>
      )}
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
      {!pages && (
        <Button
          appearance="primary"
          size="large"
          icon={<ArrowUpload24Regular />}
          disabled={busy}
          onClick={() => pick({ kind: 'new' })}
        >
          Choose receipt images
        </Button>
      )}
      {pages && pages.length > 0 && (
        <Suspense fallback={<Spinner label="Opening the photo" />}>
          <CapturePreview
            pages={pages}
            onChange={setPages}
            onRetake={(index) => pick(pages.length === 1 ? { kind: 'new' } : { kind: 'retake', index })}
            onAddPage={() => pick({ kind: 'add' })}
            onUpload={uploadPages}
            busy={busy}
          />
        </Suspense>
      )}
      {pageError && (
        <Text role="alert" className={styles.failed}>
          {pageError}
        </Text>
      )}
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
