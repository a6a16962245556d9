/**
 * A report's figures in whole cents by one rule (issue 44 finding 4): the finance view showed a report's
 * gross $28.865 rounded half up ($28.87) beside the $28.86 a posting credited (cut to the cent). Every
 * figure is now cut toward zero, and what the cuts leave is a figure of its own.
 */
import { describe, expect, it } from 'vitest';
import { formatCents } from './cents';
import { belowTheCent, reportCents, truncateToCents } from './report-cents';

describe('a report in cents', () => {
  it('shows the gross a posting credited as one figure, not $28.86 beside $28.87', () => {
    const figures = reportCents({
      grossUsd: '28.865',
      feeCents: 0,
      creditedCents: 2886,
      heldCents: 0,
      suspenseUsd: '0',
    });
    expect(formatCents(figures.grossCents)).toBe('$28.86');
    expect(formatCents(figures.creditedCents)).toBe('$28.86');
    expect(figures.roundingCents).toBe(0);
    expect(belowTheCent('28.865')).toBe('0.005');
  });

  it('adds up to the gross, the cents the cuts left shown as rounding', () => {
    // Two artists' 14.4375 and 14.4374 are credited $14.43 each: a whole cent is left by the cuts.
    const figures = reportCents({
      grossUsd: '31.8749',
      feeCents: 0,
      creditedCents: 2886,
      heldCents: 0,
      suspenseUsd: '3.0000',
    });
    expect(figures).toMatchObject({ grossCents: 3187, suspenseCents: 300, roundingCents: 1 });
    const { grossCents, ...parts } = figures;
    expect(Object.values(parts).reduce((sum, cents) => sum + cents, 0)).toBe(grossCents);
  });

  it('cuts toward zero on both sides of zero', () => {
    expect(truncateToCents('-5.009')).toBe(-500n);
    expect(truncateToCents('12.5')).toBe(1250n);
    expect(truncateToCents('0.0099')).toBe(0n);
    expect(belowTheCent('12.50')).toBe('0');
  });
});
