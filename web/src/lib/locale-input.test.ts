import { describe, expect, it } from 'vitest';
import { amountText, parseTimeText, timeText, uses24HourClock } from './locale-input';
import { numberInput } from './edits';

describe('amounts and times in the person’s locale', () => {
  it('shows amounts with two decimals and the locale’s decimal sign, and reads them back', () => {
    expect(amountText(177.2, 'en-GB')).toBe('177.20');
    expect(amountText(177.2, 'de-DE')).toBe('177,20');
    expect(amountText(1234.5, 'de-DE')).toBe('1234,50');
    expect(amountText(0.125, 'en-US')).toBe('0.125');
    expect(amountText(null, 'en-US')).toBe('');
    expect(numberInput(amountText(177.2, 'de-DE'))).toBe(177.2);
    expect(numberInput(amountText(1234.5, 'fr-FR'))).toBe(1234.5);
  });

  it('writes the time in the locale’s clock', () => {
    expect(uses24HourClock('de-DE')).toBe(true);
    expect(uses24HourClock('en-GB')).toBe(true);
    expect(uses24HourClock('en-US')).toBe(false);
    expect(timeText('18:05:00', 'de-DE')).toBe('18:05');
    expect(timeText('09:30:00', 'de-DE')).toBe('09:30');
    expect(timeText('09:30:00', 'en-US')).toMatch(/^9:30\sAM$/);
    expect(timeText('18:05:30', 'en-GB')).toBe('18:05:30');
    expect(timeText('18:05:00', 'en-US')).toMatch(/^6:05\sPM$/);
    expect(timeText(null, 'en-US')).toBe('');
  });

  it('reads a time back as it was shown or typed', () => {
    for (const locale of ['de-DE', 'en-US', 'en-GB', 'fr-FR']) {
      expect(parseTimeText(timeText('18:05:00', locale), locale)).toBe('18:05');
      expect(parseTimeText(timeText('00:30:15', locale), locale)).toBe('00:30:15');
    }
    expect(parseTimeText('6:05 pm', 'de-DE')).toBe('18:05');
    expect(parseTimeText('12 AM', 'en-US')).toBe('00:00');
    expect(parseTimeText('18.05', 'de-DE')).toBe('18:05');
    expect(parseTimeText('  ', 'de-DE')).toBeNull();
    for (const bad of ['25:00', '18', '13 pm', 'noon', '18:61'])
      expect(parseTimeText(bad, 'de-DE')).toBeUndefined();
  });
});
