/*
 * Numbers and times in form fields the way the person writes them: amounts in their locale with two
 * decimals ("177,20" in German, "177.20" in English), the time in their clock (24-hour where the
 * locale uses it). Reading a field back takes what the field showed, and the common ways of writing.
 * `locale` is the browser's when not given.
 */

/** An amount as an input shows it: the locale's decimal sign, at least two decimals, no grouping. */
export function amountText(value: number | null | undefined, locale?: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
    useGrouping: false,
    numberingSystem: 'latn',
  }).format(value);
}

/** Whether the locale's clock runs 0–23 (most of the world) rather than 1–12 with AM and PM. */
export function uses24HourClock(locale?: string): boolean {
  const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
  return cycle === 'h23' || cycle === 'h24';
}

function timeFormat(locale: string | undefined, seconds: boolean) {
  const clock24 = uses24HourClock(locale);
  return new Intl.DateTimeFormat(locale, {
    // A 24-hour clock reads best with two-digit hours, as on a receipt ("09:30"); a 12-hour one without.
    hour: clock24 ? '2-digit' : 'numeric',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: clock24 ? 'h23' : 'h12',
    numberingSystem: 'latn',
    timeZone: 'UTC',
  });
}

/** A stored time (`HH:MM:SS`) as the person's clock writes it: "09:05", or "9:05 AM". */
export function timeText(value: string | null | undefined, locale?: string): string {
  const match = /^(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value ?? '');
  if (!match) return '';
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  return timeFormat(locale, s !== 0).format(Date.UTC(1970, 0, 1, h, m, s));
}

/** The locale's words for morning and afternoon ("AM", "PM"), lower case. */
function dayPeriods(locale?: string): { am: string; pm: string } {
  const periodAt = (hour: number) =>
    (
      timeFormat(locale, false)
        .formatToParts(Date.UTC(1970, 0, 1, hour))
        .find((p) => p.type === 'dayPeriod')?.value ?? ''
    )
      .toLowerCase()
      .replace(/\./g, '');
  return { am: periodAt(1) || 'am', pm: periodAt(13) || 'pm' };
}

/**
 * A time as a person typed it, as the server takes it (`HH:MM` or `HH:MM:SS`): "18:05", "18.05",
 * "6:05 pm", "6 PM" and the locale's own AM/PM words are read. Blank is null; anything else
 * undefined (not a time).
 */
export function parseTimeText(text: string, locale?: string): string | null | undefined {
  const raw = text.trim().toLowerCase().replace(/\./g, ':').replace(/\s+/g, ' ');
  if (raw === '') return null;
  const { am, pm } = dayPeriods(locale);
  const strip = (s: string, word: string) => (word && s.includes(word) ? s.replace(word, '') : null);
  const withoutPm = strip(raw, pm) ?? strip(raw, 'pm');
  const withoutAm = withoutPm === null ? (strip(raw, am) ?? strip(raw, 'am')) : null;
  const period = withoutPm !== null ? 'pm' : withoutAm !== null ? 'am' : null;
  const clock = (withoutPm ?? withoutAm ?? raw).replace(/[^\d:]/g, '');
  const match = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/.exec(clock);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const second = match[3] === undefined ? null : Number(match[3]);
  if (period) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (period === 'pm' ? 12 : 0);
  } else if (match[2] === undefined) {
    return undefined;
  }
  if (hour > 23 || minute > 59 || (second !== null && second > 59)) return undefined;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(hour)}:${two(minute)}${second === null ? '' : `:${two(second)}`}`;
}

/** An example time in the person's clock, for a field's placeholder. */
export function timeExample(locale?: string): string {
  return timeText('18:05:00', locale);
}
