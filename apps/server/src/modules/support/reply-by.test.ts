import { describe, expect, it } from 'vitest';
import { replyByTime } from './reply-by';

// 2026: Wed 25 Nov, Fri 27 Nov, Sat 28 Nov, Sun 29 Nov, Mon 30 Nov. Europe's clocks go forward on Sun 29 Mar
// and back on Sun 25 Oct; New York's go back on Sun 1 Nov; Jerusalem's go forward on Fri 27 Mar at 02:00;
// Cairo's go back at the end of Thu 29 Oct (24:00 EEST → 23:00 EET).
describe('replyByTime (decision 173)', () => {
  it.each([
    // label, sent at (UTC instant), business days, zone, reply by (UTC instant)
    ['weekday, Pro: same time next business day', '2026-11-25T09:00:00Z', 1, 'UTC', '2026-11-26T09:00:00Z'],
    ['Friday, Pro: skips the weekend to Monday', '2026-11-27T15:00:00Z', 1, 'UTC', '2026-11-30T15:00:00Z'],
    ['Friday, Basic: Wednesday', '2026-11-27T15:00:00Z', 3, 'UTC', '2026-12-02T15:00:00Z'],
    ['Wednesday, Basic: Monday', '2026-11-25T09:00:00Z', 3, 'UTC', '2026-11-30T09:00:00Z'],
    ['Saturday, Pro: end of Monday', '2026-11-28T14:00:00Z', 1, 'UTC', '2026-12-01T00:00:00Z'],
    ['Saturday, Basic: end of Wednesday', '2026-11-28T14:00:00Z', 3, 'UTC', '2026-12-03T00:00:00Z'],
    ['Sunday just before midnight, Pro', '2026-11-29T23:59:59Z', 1, 'UTC', '2026-12-01T00:00:00Z'],
    ['Friday last millisecond, Pro', '2026-11-27T23:59:59.999Z', 1, 'UTC', '2026-11-30T23:59:59.999Z'],
    // The zone decides the day: Sunday 23:30 UTC is Monday 08:30 in Tokyo.
    ['Sunday in UTC is Monday in Tokyo', '2026-11-29T23:30:00Z', 1, 'Asia/Tokyo', '2026-11-30T23:30:00Z'],
    // Friday 20:00 in Los Angeles is Saturday 04:00 UTC: still Friday for the operator.
    [
      'Friday evening in Los Angeles',
      '2026-11-28T04:00:00Z',
      1,
      'America/Los_Angeles',
      '2026-12-01T04:00:00Z',
    ],
    // Across a DST change the wall-clock time is kept: Fri 10:00 CET → Mon 10:00 CEST (71 hours).
    ['Berlin, over spring forward', '2026-03-27T09:00:00Z', 1, 'Europe/Berlin', '2026-03-30T08:00:00Z'],
    ['Berlin, over fall back', '2026-10-23T09:00:00Z', 1, 'Europe/Berlin', '2026-10-26T10:00:00Z'],
    ['New York, over fall back', '2026-10-30T21:00:00Z', 1, 'America/New_York', '2026-11-02T22:00:00Z'],
    // Saturday before spring forward: counted from Monday 00:00 CEST, due Tuesday 00:00 CEST.
    [
      'Berlin, weekend over spring forward',
      '2026-03-28T12:00:00Z',
      1,
      'Europe/Berlin',
      '2026-03-30T22:00:00Z',
    ],
    // Thu 02:30 IST (+02:00); Fri 02:30 does not exist in Jerusalem: moved forward by the gap to 03:30 IDT.
    ['Jerusalem, due time in a DST gap', '2026-03-26T00:30:00Z', 1, 'Asia/Jerusalem', '2026-03-27T00:30:00Z'],
    // Wed 23:30 EEST; Thu 23:30 happens twice in Cairo: the first one (EEST) counts.
    ['Cairo, due time happens twice', '2026-10-28T20:30:00Z', 1, 'Africa/Cairo', '2026-10-29T20:30:00Z'],
  ])('%s', (_, sentAt, businessDays, timeZone, expected) => {
    expect(replyByTime(new Date(sentAt), businessDays, timeZone).toISOString()).toBe(
      new Date(expected).toISOString(),
    );
  });

  it('is never earlier than the message and never more than a weekend plus N days later', () => {
    for (let hour = 0; hour < 24 * 14; hour += 5) {
      const sentAt = new Date(Date.UTC(2026, 2, 20) + hour * 3_600_000);
      for (const zone of ['UTC', 'Europe/Berlin', 'Pacific/Auckland']) {
        const due = replyByTime(sentAt, 1, zone).getTime();
        expect(due).toBeGreaterThan(sentAt.getTime());
        expect(due - sentAt.getTime()).toBeLessThanOrEqual(4 * 86_400_000);
      }
    }
  });
});
