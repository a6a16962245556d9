/**
 * Reply-by times for support messages (decision 173): N business days after the message, counted in the
 * operator's time zone with Intl only (no date library). Business days are Monday to Friday; a message
 * sent on a weekend counts from 00:00 of the next Monday; N business days later is the same wall-clock
 * time on the Nth following business day. A wall-clock time that a DST change skips moves forward by the
 * gap; one that occurs twice means its first occurrence (Temporal's "compatible").
 */

type LocalDateTime = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
};

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and time of `instantMs` in `timeZone`. */
export function localDateTime(instantMs: number, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: ((instantMs % 1000) + 1000) % 1000,
  };
}

const wallClockAsUtc = (local: LocalDateTime) =>
  Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second, local.millisecond);

/** The zone's offset from UTC at `instantMs`, in milliseconds. */
const offsetAt = (instantMs: number, timeZone: string) =>
  wallClockAsUtc(localDateTime(instantMs, timeZone)) - instantMs;

/** The instant a wall-clock time in `timeZone` names (compatible disambiguation, see the header). */
export function instantOf(local: LocalDateTime, timeZone: string): number {
  const asUtc = wallClockAsUtc(local);
  // Offsets in force a day before and a day after: a DST change in between gives two candidates.
  const before = offsetAt(asUtc - DAY_MS, timeZone);
  const after = offsetAt(asUtc + DAY_MS, timeZone);
  const valid = [asUtc - before, asUtc - after]
    .filter((candidate) => offsetAt(candidate, timeZone) === asUtc - candidate)
    .sort((a, b) => a - b);
  // None valid: the time falls in a gap; the offset from before the change moves it forward by the gap.
  return valid[0] ?? asUtc - before;
}

/** 0 = Sunday … 6 = Saturday, of a calendar date. */
const weekdayOf = (year: number, month: number, day: number) =>
  new Date(Date.UTC(year, month - 1, day)).getUTCDay();
const isBusinessDay = (weekday: number) => weekday >= 1 && weekday <= 5;

function addCalendarDays(local: LocalDateTime, days: number): LocalDateTime {
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day + days));
  return { ...local, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** When a message sent at `sentAt` must be answered: `businessDays` business days later in `timeZone`. */
export function replyByTime(sentAt: Date, businessDays: number, timeZone: string): Date {
  let local = localDateTime(sentAt.getTime(), timeZone);
  if (!isBusinessDay(weekdayOf(local.year, local.month, local.day))) {
    // A weekend message counts from the first moment of the next business day.
    while (!isBusinessDay(weekdayOf(local.year, local.month, local.day))) local = addCalendarDays(local, 1);
    local = { ...local, hour: 0, minute: 0, second: 0, millisecond: 0 };
  }
  for (let remaining = businessDays; remaining > 0; ) {
    local = addCalendarDays(local, 1);
    if (isBusinessDay(weekdayOf(local.year, local.month, local.day))) remaining -= 1;
  }
  return new Date(instantOf(local, timeZone));
}
