import { describe, expect, it } from 'vitest';
import { ImageRawBase } from '@gutenye/ocr-common';
import { cutLines, decodeLine, modelInput, segmentsToLines } from '../src';

const box = (left: number, top: number, right: number, bottom: number) => [
  [left, top],
  [right, top],
  [right, bottom],
  [left, bottom],
];

describe('segmentsToLines', () => {
  it('joins the segments of one printed line left to right and keeps lines top to bottom', () => {
    const lines = segmentsToLines([
      { text: '14.10', mean: 0.99, box: box(400, 502, 460, 522) },
      { text: 'SAN SAM TRADING', mean: 0.95, box: box(100, 10, 300, 32) },
      { text: 'TOTAL RM', mean: 0.9, box: box(20, 500, 120, 520) },
      { text: 'CASH', mean: 0.97, box: box(20, 540, 80, 560) },
    ]);
    expect(lines.map(({ text, confidence }) => ({ text, confidence }))).toEqual([
      { text: 'SAN SAM TRADING', confidence: 0.95 },
      { text: 'TOTAL RM 14.10', confidence: 0.9 },
      { text: 'CASH', confidence: 0.97 },
    ]);
    // Each line keeps its segments' boxes, for the items' columns.
    expect(lines[1]!.segments).toEqual([
      { text: 'TOTAL RM', confidence: 0.9, box: [20, 500, 120, 520] },
      { text: '14.10', confidence: 0.99, box: [400, 502, 460, 522] },
    ]);
  });

  it("moves each segment's doubted characters to where they stand in the joined line", () => {
    const lines = segmentsToLines([
      { text: ' 84.00', mean: 0.9, box: box(400, 502, 460, 522), doubts: [[1, 0.5, '9']] },
      { text: 'TOTAL', mean: 0.9, box: box(20, 500, 120, 520), doubts: [[4, 0.6, 'I']] },
    ]);
    expect(lines[0]).toMatchObject({
      text: 'TOTAL 84.00',
      doubts: [
        [4, 0.6, 'I'],
        [6, 0.5, '9'],
      ],
    });
  });
});

describe('modelInput', () => {
  it('gives the models three planes of 0..1 values, blue then green then red', () => {
    const image = { data: new Uint8Array([255, 0, 51, 255, 0, 102, 255, 255]), width: 2, height: 1 };
    const { data, dims } = modelInput(image);
    expect(dims).toEqual([1, 3, 1, 2]);
    expect([...data].map((v) => Math.round(v * 100) / 100)).toEqual([0.2, 1, 0, 0.4, 1, 0]);
  });
});

describe('decodeLine', () => {
  it('reads the likeliest character of each step, dropping blanks and repeats of the step before', () => {
    // Classes: 0 = blank, 1 = 'T', 2 = 'O'; steps: T T blank O O blank O → "TOO".
    const steps = [
      [0.1, 0.8, 0.1],
      [0.1, 0.6, 0.3],
      [0.9, 0.05, 0.05],
      [0.2, 0.1, 0.7],
      [0.3, 0.1, 0.6],
      [0.8, 0.1, 0.1],
      [0.1, 0.1, 0.8],
    ];
    const line = decodeLine({ data: new Float32Array(steps.flat()), dims: [1, steps.length, 3] }, ['T', 'O']);
    expect(line.text).toBe('TOO');
    expect(line.mean).toBeCloseTo((0.8 + 0.7 + 0.8) / 3, 5);
    // Each character kept below 0.98, where it is in the text, with the class next likeliest.
    expect(line.doubts).toEqual([
      [0, 0.8, '_'],
      [1, 0.7, '_'],
      [2, 0.8, '_'],
    ]);
  });

  it('keeps the digit found next likeliest for a doubted digit', () => {
    // Classes: 0 = blank, 1 = '8', 2 = '9', 3 = '4'; `84` with the 8 nearly a 9.
    const steps = [
      [0.03, 0.5, 0.47, 0],
      [0.01, 0, 0, 0.99],
    ];
    const line = decodeLine({ data: new Float32Array(steps.flat()), dims: [1, 2, 4] }, ['8', '9', '4']);
    expect(line).toMatchObject({ text: '84', doubts: [[0, 0.5, '9']] });
  });

  it('reads nothing, with a mean of 0, from a line of blanks', () => {
    const line = decodeLine({ data: new Float32Array([0.9, 0.1, 0.8, 0.2]), dims: [1, 2, 2] }, ['A']);
    expect(line).toEqual({ text: '', mean: 0, doubts: [] });
  });
});

describe('cutLines', () => {
  const image = new ImageRawBase({ data: new Uint8Array(4 * 4 * 4), width: 4, height: 4 });
  /** A crop as the line splitter gives it: a view of a shared memory, as OpenCV's WebAssembly heap is. */
  const cropOf = (memory: ArrayBuffer, width: number, height: number) => ({
    box: box(0, 0, width, height),
    image: { data: new Uint8Array(memory, 0, width * height * 4), width, height },
  });
  /** What growing that memory does to the views of it: they become empty. */
  const grow = (memory: ArrayBuffer) => structuredClone(memory, { transfer: [memory] });

  it("copies each crop's pixels out of the splitter's memory and leaves out crops of nothing", async () => {
    const memory = new ArrayBuffer(64);
    new Uint8Array(memory).fill(7);
    const crops = await cutLines(async () => [cropOf(memory, 2, 2), cropOf(memory, 0, 3)], image, image);
    grow(memory);
    expect(crops).toHaveLength(1);
    expect(crops[0]).toMatchObject({ width: 2, height: 2 });
    expect([...crops[0]!.data]).toEqual(new Array(16).fill(7));
  });

  it('cuts again when a crop was emptied while the image was cut, and gives up after three tries', async () => {
    let calls = 0;
    const crops = await cutLines(
      async () => {
        calls += 1;
        const memory = new ArrayBuffer(64);
        const lines = [cropOf(memory, 2, 2), cropOf(memory, 1, 1)];
        if (calls === 1) grow(memory);
        return lines;
      },
      image,
      image,
    );
    expect(calls).toBe(2);
    expect(crops.map((c) => c.data.length)).toEqual([16, 4]);

    const always = async () => {
      const memory = new ArrayBuffer(64);
      const lines = [cropOf(memory, 2, 2)];
      grow(memory);
      return lines;
    };
    await expect(cutLines(always, image, image)).rejects.toThrow(/could not cut the text lines/);
  });
});
