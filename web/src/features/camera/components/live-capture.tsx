import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { Button, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Camera24Filled } from '@fluentui/react-icons/svg/camera';
import { duplicateOf, errorMessage } from '../../../lib/api-client';
import { logEvent } from '../api/log-event';
import { pageAfter, useUploadReceipt } from '../api/upload-receipt';
import { pageFromVideo, scanToDataUrl, type ScanPage } from '../utils/edit-image';
import { chooseCamera, receiptFileName } from '../utils/image';
import { UploadStatus } from './upload-status';

// The editor loads once a photo is taken, not with the camera.
const CapturePreview = lazy(() => import('./capture-preview').then((m) => ({ default: m.CapturePreview })));

/** The ideal capture size (spec §5, §9). */
const IDEAL = { width: { ideal: 1920 }, height: { ideal: 1080 } } as const;

const useStyles = makeStyles({
  stage: {
    position: 'fixed',
    top: '52px',
    left: 0,
    right: 0,
    bottom: 0,
    backgroundColor: '#000',
    zIndex: 5,
  },
  video: { width: '100%', height: '100%', objectFit: 'cover', display: 'block' },
  controls: {
    position: 'absolute',
    left: 0,
    right: 0,
    bottom: tokens.spacingVerticalXXL,
    display: 'grid',
    justifyItems: 'center',
    gap: tokens.spacingVerticalM,
    paddingInline: tokens.spacingHorizontalM,
  },
  capture: {
    width: '76px',
    height: '76px',
    minWidth: '76px',
    borderRadius: '50%',
    border: `4px solid ${tokens.colorNeutralForegroundInverted}`,
  },
  centre: {
    position: 'absolute',
    inset: 0,
    display: 'grid',
    placeItems: 'center',
    color: tokens.colorNeutralForegroundInverted,
    padding: tokens.spacingHorizontalL,
    textAlign: 'center',
  },
  problem: {
    display: 'grid',
    gap: tokens.spacingVerticalM,
    maxWidth: '420px',
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
  },
  problemText: { color: tokens.colorPaletteRedForeground1 },
  back: { position: 'absolute', top: tokens.spacingVerticalM, left: tokens.spacingHorizontalM },
  preview: { display: 'grid', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalM },
});

/** What the next capture is for: one more page, or a page taken again. */
type NextShot = { kind: 'add' } | { kind: 'retake'; index: number };

type CameraState = { kind: 'starting' } | { kind: 'ready' } | { kind: 'problem'; message: string };

function isPermissionError(error: unknown): boolean {
  return (
    error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'SecurityError')
  );
}

function cameraAvailable(): boolean {
  return typeof navigator.mediaDevices?.getUserMedia === 'function';
}

/** Opens the chosen camera at the ideal size: a rear/back/environment one when labelled, else the first. */
async function openCamera(): Promise<MediaStream> {
  // The first request grants permission; only then do devices have labels to choose by.
  const first = await navigator.mediaDevices.getUserMedia({
    video: { ...IDEAL, facingMode: 'environment' },
    audio: false,
  });
  const chosen = chooseCamera(await navigator.mediaDevices.enumerateDevices());
  const current = first.getVideoTracks()[0]?.getSettings().deviceId;
  if (!chosen?.deviceId || chosen.deviceId === current) return first;
  first.getTracks().forEach((track) => track.stop());
  return navigator.mediaDevices.getUserMedia({
    video: { ...IDEAL, deviceId: { exact: chosen.deviceId } },
    audio: false,
  });
}

/** Live capture (spec §2 Camera, p=Camera): full-screen preview and a capture button. */
export function LiveCapture({ userId }: { userId: string }) {
  const styles = useStyles();
  const navigate = useNavigate();
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const upload = useUploadReceipt();
  const [camera, setCamera] = useState<CameraState>(() =>
    cameraAvailable()
      ? { kind: 'starting' }
      : {
          kind: 'problem',
          message:
            'This browser cannot use a camera here (a camera needs a secure https page). Upload a photo instead.',
        },
  );
  const [error, setError] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);

  useEffect(() => {
    if (!cameraAvailable()) return;
    let cancelled = false;
    openCamera()
      .then(async (opened) => {
        if (cancelled) {
          opened.getTracks().forEach((track) => track.stop());
          return;
        }
        stream.current = opened;
        if (video.current) {
          video.current.srcObject = opened;
          await video.current.play().catch(() => undefined);
        }
        setCamera({ kind: 'ready' });
      })
      .catch((failure: unknown) => {
        if (cancelled) return;
        if (isPermissionError(failure)) {
          void logEvent('Video permissions denied', {
            reason: failure instanceof Error ? failure.name : String(failure),
          });
          setCamera({
            kind: 'problem',
            message:
              'Camera permission was denied. Allow the camera for this site in your browser settings, or upload a photo instead.',
          });
        } else if (failure instanceof DOMException && failure.name === 'NotFoundError') {
          setCamera({
            kind: 'problem',
            message: 'No camera was found on this device. Upload a photo instead.',
          });
        } else {
          setCamera({
            kind: 'problem',
            message: `The camera could not be started: ${errorMessage(failure)}`,
          });
        }
      });
    return () => {
      cancelled = true;
      stream.current?.getTracks().forEach((track) => track.stop());
      stream.current = null;
    };
  }, []);

  // The pages taken so far, checked before they are sent; null before the first capture.
  const [pages, setPages] = useState<ScanPage[] | null>(null);
  // While set, the camera is shown again for that page.
  const [nextShot, setNextShot] = useState<NextShot | null>(null);
  const [duplicate, setDuplicate] = useState<string | null>(null);

  function capture() {
    const element = video.current;
    if (!element || element.videoWidth === 0) return;
    setError(null);
    const page = pageFromVideo(element);
    if (!pages || !nextShot) setPages([page]);
    else if (nextShot.kind === 'add') setPages([...pages, page]);
    else setPages(pages.map((p, i) => (i === nextShot.index ? page : p)));
    setNextShot(null);
  }

  async function send(scan: readonly ScanPage[]) {
    setError(null);
    setDuplicate(null);
    setPreparing(true);
    try {
      // JPEG at quality 1 and the video's native size (spec §5), scaled down only to meet the limit.
      const imgSrc = scanToDataUrl(scan, 1);
      const outcome = await upload.mutateAsync({ userId, imgSrc, fileName: receiptFileName('image/jpeg') });
      stream.current?.getTracks().forEach((track) => track.stop());
      navigate(pageAfter(outcome));
    } catch (failure) {
      setError(errorMessage(failure));
      setDuplicate(duplicateOf(failure));
    } finally {
      setPreparing(false);
    }
  }

  const busy = preparing || upload.isPending;
  const checking = pages !== null && nextShot === null;
  return (
    <>
      {checking && (
        <div className={styles.preview}>
          <Suspense fallback={<Spinner label="Opening the photo" />}>
            <CapturePreview
              pages={pages}
              onChange={(next) => setPages(next.length > 0 ? next : null)}
              onRetake={(index) => setNextShot({ kind: 'retake', index })}
              onAddPage={() => setNextShot({ kind: 'add' })}
              onUpload={(scan) => void send(scan)}
              busy={busy}
            />
          </Suspense>
          <UploadStatus
            busy={busy}
            error={error}
            duplicateOf={duplicate}
            onDismissError={() => setError(null)}
          />
        </div>
      )}
      <section className={styles.stage} aria-label="Camera" hidden={checking}>
        <video ref={video} className={styles.video} playsInline muted autoPlay aria-label="Camera preview" />
        {camera.kind === 'starting' && (
          <div className={styles.centre}>
            <Spinner label="Starting the camera" appearance="inverted" />
          </div>
        )}
        {camera.kind === 'problem' && (
          <div className={styles.centre}>
            <div className={styles.problem}>
              <Text role="alert" className={styles.problemText}>
                {camera.message}
              </Text>
              <RouterLink to="/Camera?p=Upload">Upload a photo instead</RouterLink>
            </div>
          </div>
        )}
        {camera.kind === 'ready' && pages && (
          <Button className={styles.back} onClick={() => setNextShot(null)}>
            {nextShot?.kind === 'add'
              ? `Back to the ${pages.length === 1 ? 'photo' : 'pages'}`
              : 'Keep the photo'}
          </Button>
        )}
        {camera.kind === 'ready' && (
          <div className={styles.controls}>
            <Button
              appearance="primary"
              shape="circular"
              className={styles.capture}
              icon={<Camera24Filled />}
              aria-label={nextShot?.kind === 'add' ? `Capture page ${pages!.length + 1}` : 'Capture receipt'}
              disabled={busy}
              onClick={capture}
            />
          </div>
        )}
      </section>
    </>
  );
}
