import { useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import {
  FULL_CROP,
  MAX_PAGES,
  browserCanvas,
  isUnedited,
  moveCrop,
  renderPage,
  turnPage,
  type CropGrip,
  type CropRect,
  type MakeCanvas,
  type ScanPage,
} from '../utils/edit-image';

/** The longest side of the picture drawn on screen: enough to check a photo, quick to redraw. */
const SHOWN_SIDE = 1200;
/** How far an arrow key moves a crop corner, as a fraction of the page (Shift: a finer step). */
const KEY_STEP = 0.02;
const FINE_KEY_STEP = 0.005;

const HANDLE = '28px';

const useStyles = makeStyles({
  column: { display: 'grid', gap: tokens.spacingVerticalM, maxWidth: '560px', minWidth: 0 },
  frame: {
    display: 'grid',
    placeItems: 'center',
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    padding: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  picture: { position: 'relative', display: 'inline-block', maxWidth: '100%', touchAction: 'none' },
  image: { display: 'block', maxWidth: '100%', maxHeight: '55vh', userSelect: 'none' },
  crop: {
    position: 'absolute',
    boxSizing: 'border-box',
    border: `2px solid ${tokens.colorNeutralForegroundInverted}`,
    outline: `1px solid ${tokens.colorNeutralForeground1}`,
    // Dims what the crop leaves out; the picture's box clips the shadow.
    boxShadow: '0 0 0 9999px rgba(0, 0, 0, 0.45)',
    cursor: 'move',
    touchAction: 'none',
  },
  clip: { overflow: 'hidden', position: 'absolute', inset: 0 },
  handle: {
    position: 'absolute',
    width: HANDLE,
    height: HANDLE,
    marginLeft: `calc(${HANDLE} / -2)`,
    marginTop: `calc(${HANDLE} / -2)`,
    boxSizing: 'border-box',
    borderRadius: '50%',
    border: `3px solid ${tokens.colorNeutralForegroundInverted}`,
    backgroundColor: tokens.colorBrandBackground,
    touchAction: 'none',
    ':focus-visible': { outline: `3px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '2px' },
  },
  tools: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  pages: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    listStyleType: 'none',
    margin: 0,
    padding: 0,
  },
  pageButton: { padding: '2px', minWidth: 0, height: 'auto' },
  thumb: { display: 'block', width: '48px', height: '64px', objectFit: 'cover' },
});

const GRIPS: { grip: Exclude<CropGrip, 'move'>; name: string; at: (c: CropRect) => [number, number] }[] = [
  { grip: 'top-left', name: 'Top left', at: (c) => [c.x, c.y] },
  { grip: 'top-right', name: 'Top right', at: (c) => [c.x + c.width, c.y] },
  { grip: 'bottom-left', name: 'Bottom left', at: (c) => [c.x, c.y + c.height] },
  { grip: 'bottom-right', name: 'Bottom right', at: (c) => [c.x + c.width, c.y + c.height] },
];

const percent = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;

/** A page drawn for the screen, as an image source. */
function shown(page: ScanPage, make: MakeCanvas): string {
  const longest = Math.max(page.width, page.height);
  return renderPage(page, make, Math.min(1, SHOWN_SIDE / longest)).toDataURL('image/jpeg', 0.85);
}

interface Drag {
  grip: CropGrip;
  pointerX: number;
  pointerY: number;
  start: CropRect;
  box: DOMRect;
}

/** The crop rectangle over the whole (turned) page, with a handle at each corner. */
function CropBox({ crop, onChange }: { crop: CropRect; onChange: (crop: CropRect) => void }) {
  const styles = useStyles();
  const drag = useRef<Drag | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const begin = (grip: CropGrip, event: PointerEvent<HTMLElement>) => {
    if (!box.current) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = {
      grip,
      pointerX: event.clientX,
      pointerY: event.clientY,
      start: crop,
      box: box.current.getBoundingClientRect(),
    };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || d.box.width === 0 || d.box.height === 0) return;
    const dx = (event.clientX - d.pointerX) / d.box.width;
    const dy = (event.clientY - d.pointerY) / d.box.height;
    onChange(moveCrop(d.start, d.grip, dx, dy));
  };
  const end = () => {
    drag.current = null;
  };
  const key = (grip: CropGrip, event: KeyboardEvent<HTMLElement>) => {
    const step = event.shiftKey ? FINE_KEY_STEP : KEY_STEP;
    const deltas: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const delta = deltas[event.key];
    if (!delta) return;
    event.preventDefault();
    onChange(moveCrop(crop, grip, delta[0], delta[1]));
  };

  return (
    <div ref={box} className={styles.clip} onPointerMove={move} onPointerUp={end} onPointerCancel={end}>
      <div
        className={styles.crop}
        data-testid="crop-area"
        style={{
          left: percent(crop.x),
          top: percent(crop.y),
          width: percent(crop.width),
          height: percent(crop.height),
        }}
        onPointerDown={(event) => begin('move', event)}
      />
      {GRIPS.map(({ grip, name, at }) => {
        const [x, y] = at(crop);
        return (
          <div
            key={grip}
            role="button"
            tabIndex={0}
            aria-label={`${name} corner of the crop: drag it, or move it with the arrow keys`}
            className={styles.handle}
            style={{ left: percent(x), top: percent(y) }}
            onPointerDown={(event) => begin(grip, event)}
            onKeyDown={(event) => key(grip, event)}
          />
        );
      })}
    </div>
  );
}

export interface CapturePreviewProps {
  pages: readonly ScanPage[];
  onChange: (pages: ScanPage[]) => void;
  /** Take or pick the page at `index` again. */
  onRetake: (index: number) => void;
  /** Take or pick one more page of the same receipt. */
  onAddPage: () => void;
  onUpload: (pages: readonly ScanPage[]) => void;
  busy: boolean;
  /** Draws the pages; tests give a canvas made outside a browser. */
  makeCanvas?: MakeCanvas;
}

/**
 * The photo as taken or picked, before it is sent, like a scanner app: take it again, turn it a
 * quarter at a time, crop it by its corners, add the next part of a long receipt, then upload the
 * pages as one receipt.
 */
export function CapturePreview({
  pages,
  onChange,
  onRetake,
  onAddPage,
  onUpload,
  busy,
  makeCanvas = browserCanvas,
}: CapturePreviewProps) {
  const styles = useStyles();
  const [chosen, setChosen] = useState(pages.length - 1);
  const [cropping, setCropping] = useState(false);
  // A page just added is the one shown.
  const [count, setCount] = useState(pages.length);
  if (count !== pages.length) {
    setCount(pages.length);
    if (pages.length > count) setChosen(pages.length - 1);
  }
  const index = Math.min(chosen, pages.length - 1);
  const page = pages[index]!;
  const many = pages.length > 1;
  const pageName = many ? `page ${index + 1} of ${pages.length}` : 'the photo';

  const picture = useMemo(
    () => shown(cropping ? { ...page, crop: FULL_CROP } : page, makeCanvas),
    // Redrawn when the page is turned or another crop is shown, not while a crop corner is dragged.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [page.source, page.turns, cropping ? null : page.crop, makeCanvas],
  );
  const thumbnails = useMemo(
    () => (many ? pages.map((p) => shown(p, makeCanvas)) : []),
    [pages, many, makeCanvas],
  );

  const change = (next: ScanPage) => onChange(pages.map((p, i) => (i === index ? next : p)));
  const remove = () => {
    onChange(pages.filter((_, i) => i !== index));
    setChosen(Math.max(0, index - 1));
    setCropping(false);
  };

  return (
    <section className={styles.column} aria-label="Check the photo">
      <Text>
        {many
          ? `Page ${index + 1} of ${pages.length}: the pages are uploaded as one receipt, one under the other.`
          : 'Check the photo: turn it or crop it to the receipt, then upload it.'}
      </Text>
      <div className={styles.frame}>
        <div className={styles.picture}>
          <img className={styles.image} src={picture} alt={`Receipt, ${pageName}`} draggable={false} />
          {cropping && <CropBox crop={page.crop} onChange={(crop) => change({ ...page, crop })} />}
        </div>
      </div>
      {cropping && (
        <Text>Drag the corners (or the frame) to the edges of the receipt, then choose Done.</Text>
      )}
      {many && (
        <ul className={styles.pages} aria-label="Pages">
          {thumbnails.map((src, i) => (
            <li key={i}>
              <Button
                className={styles.pageButton}
                appearance={i === index ? 'primary' : 'secondary'}
                aria-pressed={i === index}
                aria-label={`Page ${i + 1}`}
                disabled={busy}
                onClick={() => {
                  setChosen(i);
                  setCropping(false);
                }}
              >
                <img className={styles.thumb} src={src} alt="" />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.tools}>
        <Button disabled={busy} onClick={() => onRetake(index)}>
          Retake
        </Button>
        <Button
          disabled={busy}
          onClick={() => change(turnPage(page))}
          aria-label={`Rotate ${pageName} a quarter turn clockwise`}
        >
          Rotate
        </Button>
        <Button disabled={busy} aria-pressed={cropping} onClick={() => setCropping(!cropping)}>
          {cropping ? 'Done' : 'Crop'}
        </Button>
        {cropping && !isUnedited({ ...page, turns: 0 }) && (
          <Button disabled={busy} onClick={() => change({ ...page, crop: FULL_CROP })}>
            Whole page
          </Button>
        )}
        {pages.length < MAX_PAGES && (
          <Button disabled={busy} onClick={onAddPage}>
            Add page
          </Button>
        )}
        {many && (
          <Button disabled={busy} onClick={remove}>
            Remove page
          </Button>
        )}
      </div>
      <Button
        appearance="primary"
        size="large"
        disabled={busy}
        onClick={() => {
          setCropping(false);
          onUpload(pages);
        }}
      >
        {many ? `Upload ${pages.length} pages as one receipt` : 'Upload'}
      </Button>
    </section>
  );
}
