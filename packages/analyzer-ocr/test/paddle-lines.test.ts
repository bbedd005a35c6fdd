import { describe, expect, it } from 'vitest';
import { segmentsToLines } from '../src';

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
    expect(lines).toEqual([
      { text: 'SAN SAM TRADING', confidence: 0.95 },
      { text: 'TOTAL RM 14.10', confidence: 0.9 },
      { text: 'CASH', confidence: 0.97 },
    ]);
  });
});
