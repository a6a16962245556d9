import { describe, expect, it } from 'vitest';
import { centsAddingUpTo, sumDecimals } from './statement-cents';

describe('statement cents', () => {
  it('keeps cents that already add up', () => {
    expect(centsAddingUpTo(['1.01', '-0.25', '2'], 276n)).toEqual([101n, -25n, 200n]);
  });
  it('takes the truncated remainder from the rows that rounded up the most', () => {
    // Exact 0.335 + 0.335 + 0.335 = 1.005, credited 1.00: rounding gave 1.02.
    expect(centsAddingUpTo(['0.335', '0.335', '0.335'], 100n)).toEqual([33n, 33n, 34n]);
    // 21.531 + -2.032037034 = 19.498962966, credited 19.49: the refund's cent goes (it rounded up more).
    expect(centsAddingUpTo(['21.531', '-2.032037034'], 1949n)).toEqual([2153n, -204n]);
    // A total far from the rows' sum is spread over them in turn.
    expect(centsAddingUpTo(['1', '1'], 205n)).toEqual([103n, 102n]);
  });
  it('sums exact decimals', () => {
    expect(sumDecimals(['1.005', '-0.0001', '2'])).toBe('3.0049');
    expect(sumDecimals([])).toBe('0');
  });
});
