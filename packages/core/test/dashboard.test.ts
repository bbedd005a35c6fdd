import { describe, expect, it } from 'vitest';
import { periodRanges } from '../src';

describe('periodRanges', () => {
  it('crosses into the previous year for January, the first quarter and the year', () => {
    expect(periodRanges('month', '2024-01-15')).toEqual({
      current: { from: '2024-01-01', to: '2024-01-31' },
      previous: { from: '2023-12-01', to: '2023-12-31' },
    });
    expect(periodRanges('quarter', '2024-02-29')).toEqual({
      current: { from: '2024-01-01', to: '2024-03-31' },
      previous: { from: '2023-10-01', to: '2023-12-31' },
    });
    expect(periodRanges('year', '2024-12-31').previous).toEqual({ from: '2023-01-01', to: '2023-12-31' });
  });

  it('ends each month on its own last day, leap years included', () => {
    expect(periodRanges('month', '2024-03-31').previous).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(periodRanges('month', '2023-03-01').previous.to).toBe('2023-02-28');
    expect(periodRanges('quarter', '2024-12-01').current).toEqual({ from: '2024-10-01', to: '2024-12-31' });
  });
});
