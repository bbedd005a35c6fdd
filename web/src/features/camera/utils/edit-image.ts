import { ImagePreparationError, encodeJpegWithinLimit } from './image';

/** Quarter turns clockwise: 0, 90, 180 or 270 degrees. */
export type QuarterTurns = 0 | 1 | 2 | 3;

/** A crop as fractions (0–1) of the turned page: where it starts and how much of it it keeps. */
export interface CropRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const FULL_CROP: CropRect = { x: 0, y: 0, width: 1, height: 1 };

/** The smallest crop side, as a fraction of the page: a crop cannot shrink to nothing. */
export const MIN_CROP = 0.1;

/** A page as taken or picked: something a canvas can draw, and its natural size. */
export interface PageSource {
  source: CanvasImageSource;
  width: number;
  height: number;
}

/** A page of a receipt being scanned: what was taken, and how the person turned and cropped it. */
export interface ScanPage extends PageSource {
  turns: QuarterTurns;
  crop: CropRect;
  /** The picked file, sent as it is when it is the whole receipt and was not turned or cropped. */
  file?: File;
}

/** The little of a canvas the editor needs, so tests may draw on a canvas made outside a browser. */
export interface CanvasLike {
  width: number;
  height: number;
  getContext(kind: '2d'): CanvasRenderingContext2D | null;
  toDataURL(type?: string, quality?: number): string;
}

export type MakeCanvas = (width: number, height: number) => CanvasLike;

export const browserCanvas: MakeCanvas = (width, height) => {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
};

/** A new page as taken: not turned, not cropped. */
export function newPage(source: PageSource): ScanPage {
  return { ...source, turns: 0, crop: FULL_CROP };
}

/**
 * A picked image as a page to check, or null when this browser cannot draw it (a PDF, a format it
 * does not decode): such a file is sent as it is.
 */
export async function pageFromFile(file: File): Promise<ScanPage | null> {
  if (!file.type.startsWith('image/') || typeof createImageBitmap !== 'function') return null;
  try {
    const bitmap = await createImageBitmap(file);
    return { ...newPage({ source: bitmap, width: bitmap.width, height: bitmap.height }), file };
  } catch {
    return null;
  }
}

/** The video's current frame at its native size (spec §5), as a page to check. */
export function pageFromVideo(video: HTMLVideoElement, make: MakeCanvas = browserCanvas): ScanPage {
  const frame = make(video.videoWidth, video.videoHeight);
  context(frame).drawImage(video, 0, 0, frame.width, frame.height);
  return newPage({ source: frame as HTMLCanvasElement, width: frame.width, height: frame.height });
}

/** Whether a page is as it was taken. */
export function isUnedited(page: ScanPage): boolean {
  const { x, y, width, height } = page.crop;
  return page.turns === 0 && x === 0 && y === 0 && width === 1 && height === 1;
}

/** The size of a picture after `turns` quarter turns. */
export function turnedSize(width: number, height: number, turns: QuarterTurns) {
  return turns % 2 === 1 ? { width: height, height: width } : { width, height };
}

/** The same part of the picture after one more quarter turn clockwise. */
export function turnCrop(crop: CropRect): CropRect {
  return { x: 1 - crop.y - crop.height, y: crop.x, width: crop.height, height: crop.width };
}

/** Turns a page a quarter clockwise, its crop with it. */
export function turnPage(page: ScanPage): ScanPage {
  return { ...page, turns: ((page.turns + 1) % 4) as QuarterTurns, crop: turnCrop(page.crop) };
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** A crop kept inside the page and no smaller than MIN_CROP on a side. */
export function clampCrop(crop: CropRect): CropRect {
  const width = clamp(crop.width, MIN_CROP, 1);
  const height = clamp(crop.height, MIN_CROP, 1);
  return { x: clamp(crop.x, 0, 1 - width), y: clamp(crop.y, 0, 1 - height), width, height };
}

/** A corner of the crop rectangle, or the whole of it. */
export type CropGrip = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right' | 'move';

/**
 * The crop after one of its corners (or the whole rectangle) is moved by (dx, dy), fractions of the
 * page. The opposite corner stays where it is.
 */
export function moveCrop(crop: CropRect, grip: CropGrip, dx: number, dy: number): CropRect {
  if (grip === 'move') {
    return {
      ...crop,
      x: clamp(crop.x + dx, 0, 1 - crop.width),
      y: clamp(crop.y + dy, 0, 1 - crop.height),
    };
  }
  let left = crop.x;
  let top = crop.y;
  let right = crop.x + crop.width;
  let bottom = crop.y + crop.height;
  if (grip.endsWith('left')) left = clamp(left + dx, 0, right - MIN_CROP);
  else right = clamp(right + dx, left + MIN_CROP, 1);
  if (grip.startsWith('top')) top = clamp(top + dy, 0, bottom - MIN_CROP);
  else bottom = clamp(bottom + dy, top + MIN_CROP, 1);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function context(canvas: CanvasLike): CanvasRenderingContext2D {
  const drawing = canvas.getContext('2d');
  if (!drawing)
    throw new ImagePreparationError('This browser cannot draw images, so the picture cannot be prepared.');
  return drawing;
}

/**
 * Draws a page turned and cropped as the person left it, at `scale` of its own size (below 1 for a
 * preview on screen).
 */
export function renderPage(page: ScanPage, make: MakeCanvas = browserCanvas, scale = 1): CanvasLike {
  const turned = turnedSize(page.width, page.height, page.turns);
  const left = Math.round(page.crop.x * turned.width);
  const top = Math.round(page.crop.y * turned.height);
  const width = Math.max(1, Math.round(page.crop.width * turned.width));
  const height = Math.max(1, Math.round(page.crop.height * turned.height));
  const canvas = make(Math.max(1, Math.round(width * scale)), Math.max(1, Math.round(height * scale)));
  const drawing = context(canvas);
  drawing.scale(scale, scale);
  drawing.translate(-left, -top);
  // Each turn maps the source's (x, y) into the turned picture; the crop is then its window.
  if (page.turns === 1) drawing.translate(page.height, 0);
  else if (page.turns === 2) drawing.translate(page.width, page.height);
  else if (page.turns === 3) drawing.translate(0, page.width);
  drawing.rotate((page.turns * Math.PI) / 2);
  drawing.drawImage(page.source, 0, 0, page.width, page.height);
  return canvas;
}

/**
 * The pages of one receipt as one picture, one under the other, each centred on white: the way a long
 * receipt photographed in parts reads from top to bottom.
 */
export function stitchPages(pages: readonly ScanPage[], make: MakeCanvas = browserCanvas): CanvasLike {
  const drawn = pages.map((page) => renderPage(page, make));
  if (drawn.length === 1) return drawn[0]!;
  const width = Math.max(...drawn.map((c) => c.width));
  const height = drawn.reduce((sum, c) => sum + c.height, 0);
  const canvas = make(width, height);
  const drawing = context(canvas);
  drawing.fillStyle = '#fff';
  drawing.fillRect(0, 0, width, height);
  let top = 0;
  for (const page of drawn) {
    drawing.drawImage(page as unknown as CanvasImageSource, Math.round((width - page.width) / 2), top);
    top += page.height;
  }
  return canvas;
}

/** How many pages one receipt may have: enough for a long receipt, small enough for one picture. */
export const MAX_PAGES = 6;

/**
 * The scanned receipt as one JPEG data URL within the upload limit: its pages turned, cropped and
 * stitched.
 *
 * @param quality - JPEG quality of the first try (1 for a photo taken in the app, spec §5)
 */
export function scanToDataUrl(pages: readonly ScanPage[], quality: number): string {
  const canvas = stitchPages(pages) as HTMLCanvasElement;
  return encodeJpegWithinLimit(canvas, canvas.width, canvas.height, quality);
}
