import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCents,
  formatCompactCents,
  formatDate,
  formatDateTime,
  formatDuration,
  formatLongDate,
  formatPeriod,
  personName,
} from './format';

describe('format', () => {
  it('shows calendar dates as written, whatever the time zone', () => {
    expect(formatDate('2026-01-01')).toBe('Jan 1, 2026');
    expect(formatLongDate('2026-06-12')).toBe('June 12, 2026');
  });

  it('shows instants in English with the time when asked', () => {
    const instant = new Date(2026, 5, 12, 15, 4);
    expect(formatDate(instant)).toBe('Jun 12, 2026');
    expect(formatLongDate(instant.toISOString())).toBe('June 12, 2026');
    expect(formatDateTime(instant)).toMatch(/^Jun 12, 2026, 3:04\sPM$/);
  });

  it('labels chart periods by bucket', () => {
    expect(formatPeriod('2026-03-01', 'month')).toBe('Mar 2026');
    expect(formatPeriod('2026-03-01', 'month', 'short')).toBe('Mar 26');
    expect(formatPeriod('2026-03-09', 'week')).toBe('Week of Mar 9');
    expect(formatPeriod('2026-03-09', 'week', 'short')).toBe('Mar 9');
    expect(formatPeriod('2026-03-09', 'day')).toBe('Mar 9');
  });

  it('formats money from cents', () => {
    expect(formatCents(123456)).toBe('$1,234.56');
    expect(formatCents(-5)).toBe('-$0.05');
    expect(formatCompactCents(123_456)).toBe('$1.2k');
    expect(formatCompactCents(250_000_000)).toBe('$2.5M');
    expect(formatCompactCents(4_200)).toBe('$42');
  });

  it('shows file sizes in binary units, the unit growing with the size', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10.0 MB');
    expect(formatBytes(4_000_000_000)).toBe('3.73 GB');
  });

  it('shows track lengths as m:ss, and a dash when unknown', () => {
    expect(formatDuration(187_400)).toBe('3:07');
    expect(formatDuration(59_600)).toBe('1:00');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(0)).toBe('—');
  });

  it('names a credited person with the middle name only when there is one', () => {
    expect(personName({ firstName: 'Ada', middleName: null, lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(personName({ firstName: 'John', middleName: 'Ronald', lastName: 'Tolkien' })).toBe(
      'John Ronald Tolkien',
    );
  });
});
