import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createCanvas } from '@napi-rs/canvas';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { newPage, stitchPages, type CanvasLike, type MakeCanvas, type ScanPage } from '../utils/edit-image';
import { CapturePreview } from './capture-preview';

// jsdom draws nothing: the pages are drawn on a real canvas, so sizes and pixels can be checked.
const make: MakeCanvas = (width, height) => createCanvas(width, height) as unknown as CanvasLike;

/** A 300 × 100 picture: its left third red, the rest blue. */
function photo(): ScanPage {
  const canvas = make(300, 100);
  const drawing = canvas.getContext('2d')!;
  drawing.fillStyle = '#f00';
  drawing.fillRect(0, 0, 100, 100);
  drawing.fillStyle = '#00f';
  drawing.fillRect(100, 0, 200, 100);
  return newPage({ source: canvas as unknown as CanvasImageSource, width: 300, height: 100 });
}

function colourAt(canvas: CanvasLike, x: number, y: number): string {
  const [r, g, b] = canvas.getContext('2d')!.getImageData(x, y, 1, 1).data;
  return r! > 200 && g! < 50 && b! < 50 ? 'red' : b! > 200 && r! < 50 && g! < 50 ? 'blue' : `${r},${g},${b}`;
}

/** The preview as a page holds it: the pages in state, and what Upload sends drawn as one picture. */
function renderPreview(first: ScanPage[]) {
  const uploaded: CanvasLike[] = [];
  const addPage = vi.fn();
  function Holder() {
    const [pages, setPages] = useState(first);
    return (
      <CapturePreview
        pages={pages}
        onChange={setPages}
        onRetake={vi.fn()}
        onAddPage={addPage}
        onUpload={(scan) => uploaded.push(stitchPages(scan, make))}
        busy={false}
        makeCanvas={make}
      />
    );
  }
  render(
    <FluentProvider theme={webLightTheme}>
      <Holder />
    </FluentProvider>,
  );
  return { uploaded, addPage };
}

describe('Checking a photo before it is sent', () => {
  it('sends the photo as taken when nothing is changed', async () => {
    const { uploaded } = renderPreview([photo()]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Upload' }));
    expect(uploaded[0]).toMatchObject({ width: 300, height: 100 });
    expect(colourAt(uploaded[0]!, 10, 50)).toBe('red');
  });

  it('turns the photo a quarter clockwise per Rotate, and back after four', async () => {
    const user = userEvent.setup();
    const { uploaded } = renderPreview([photo()]);
    const rotate = screen.getByRole('button', { name: /Rotate the photo a quarter turn clockwise/ });
    await user.click(rotate);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    // The left of the picture is now its top.
    expect(uploaded[0]).toMatchObject({ width: 100, height: 300 });
    expect(colourAt(uploaded[0]!, 50, 10)).toBe('red');
    expect(colourAt(uploaded[0]!, 50, 290)).toBe('blue');

    await user.click(rotate);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    // Upside down: the red third is on the right.
    expect(uploaded[1]).toMatchObject({ width: 300, height: 100 });
    expect(colourAt(uploaded[1]!, 290, 50)).toBe('red');

    await user.click(rotate);
    await user.click(rotate);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(uploaded[2]).toMatchObject({ width: 300, height: 100 });
    expect(colourAt(uploaded[2]!, 10, 50)).toBe('red');
  });

  it('crops to the rectangle moved by its corners, and the crop turns with the photo', async () => {
    const user = userEvent.setup();
    const { uploaded } = renderPreview([photo()]);
    await user.click(screen.getByRole('button', { name: 'Crop' }));
    const corner = screen.getByRole('button', { name: /^Bottom right corner of the crop/ });
    // Each arrow step is 2 % of the page: 33 steps left keep the left third (the red part).
    for (let i = 0; i < 33; i++) fireEvent.keyDown(corner, { key: 'ArrowLeft' });
    expect(screen.getByTestId('crop-area').style.width).toBe('34%');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(uploaded[0]).toMatchObject({ width: 102, height: 100 });
    expect(colourAt(uploaded[0]!, 5, 50)).toBe('red');
    expect(colourAt(uploaded[0]!, 98, 50)).toBe('red');

    await user.click(screen.getByRole('button', { name: /Rotate the photo/ }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    // The same red part of the receipt, now turned.
    expect(uploaded[1]).toMatchObject({ width: 100, height: 102 });
    expect(colourAt(uploaded[1]!, 50, 5)).toBe('red');
    expect(colourAt(uploaded[1]!, 50, 98)).toBe('red');
  });

  it('stacks the pages of one receipt into one picture, and asks for another page', async () => {
    const user = userEvent.setup();
    const { uploaded, addPage } = renderPreview([photo(), photo()]);
    await user.click(screen.getByRole('button', { name: 'Add page' }));
    expect(addPage).toHaveBeenCalledTimes(1);
    // The second page turned: 100 wide and 300 tall, centred under the first.
    await user.click(screen.getByRole('button', { name: /Rotate page 2 of 2/ }));
    await user.click(screen.getByRole('button', { name: 'Upload 2 pages as one receipt' }));
    expect(uploaded[0]).toMatchObject({ width: 300, height: 400 });
    expect(colourAt(uploaded[0]!, 10, 50)).toBe('red');
    expect(colourAt(uploaded[0]!, 150, 110)).toBe('red');
    expect(colourAt(uploaded[0]!, 10, 300)).toBe('255,255,255');
  });
});
