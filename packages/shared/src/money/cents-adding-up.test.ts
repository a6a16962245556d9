/** The money module's functions that replaced the ledger's and the statements' private ones (record 263). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsAddingUpTo, RunningDecimalShare } from './allocation';
import {
  addToSum,
  DECIMAL_ZERO,
  formatScaled,
  isWholeCents,
  negateDecimal,
  percentOfCents,
  sumDecimals,
  sumDecimalsAtScale,
  unitsAtCommonScale,
} from './decimal';

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
  it('adds up to any total it is given', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        (units, total) => {
          const cents = centsAddingUpTo(
            units.map((unit) => formatScaled({ units: BigInt(unit), scale: 4 })),
            BigInt(total),
          );
          expect(cents.reduce((a, b) => a + b, 0n)).toBe(BigInt(total));
        },
      ),
    );
  });
  it('sums exact decimals', () => {
    expect(sumDecimals(['1.005', '-0.0001', '2'])).toBe('3.0049');
    expect(sumDecimals([])).toBe('0');
  });
});

describe('journal amounts', () => {
  it('sums at the largest scale of the terms, as the journal stores them', () => {
    expect(sumDecimalsAtScale(['1.50', '2'])).toBe('3.50');
    expect(sumDecimalsAtScale(['-30.00'])).toBe('-30.00');
    expect(sumDecimalsAtScale([])).toBe('0');
    expect(() => sumDecimalsAtScale(['1', 'x'])).toThrow(RangeError);
  });
  it('negates keeping the scale, zero without a sign', () => {
    expect(negateDecimal('12.50')).toBe('-12.50');
    expect(negateDecimal('-0.5')).toBe('0.5');
    expect(negateDecimal('0.00')).toBe('0');
    expect(() => negateDecimal('1e3')).toThrow(RangeError);
  });
  it('knows a whole number of cents', () => {
    expect(['1.50', '2', '1.2300', '-0.01'].map(isWholeCents)).toEqual([true, true, true, true]);
    expect(['0.005', '-1.001', 'abc'].map(isWholeCents)).toEqual([false, false, false]);
  });
});

describe('weights and running sums', () => {
  it('writes decimals as integers at their largest scale', () => {
    expect(unitsAtCommonScale(['1.5', '0.25', '-2', 'x'])).toEqual([150n, 25n, -200n, 0n]);
    expect(unitsAtCommonScale([])).toEqual([]);
  });
  it('adds decimal text to a running sum exactly, skipping what is not a decimal', () => {
    const sum = ['0.1', '0.2', 'n/a', '-0.05'].reduce(addToSum, DECIMAL_ZERO);
    expect(formatScaled(sum)).toBe('0.25');
  });
  it('shares a decimal total by running weights, the shares adding up to it exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.integer({ min: 0, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 30 }),
        (units, scale, weights) => {
          const total = weights.reduce((a, b) => a + b, 0);
          fc.pre(total > 0);
          const text = formatScaled({ units: BigInt(units), scale });
          const running = new RunningDecimalShare(text, BigInt(total));
          const shares = weights.map((weight) => running.next(BigInt(weight)) ?? 'null');
          expect(running.isComplete).toBe(true);
          expect(sumDecimals(shares)).toBe(sumDecimals([text]));
        },
      ),
    );
  });
});

describe('a rate applied to cents', () => {
  it('rounds half away from zero to the cent', () => {
    expect(percentOfCents(1000, '24')).toBe(240n);
    expect(percentOfCents(1001, '30')).toBe(300n);
    expect(percentOfCents(5, '30')).toBe(2n);
    expect(percentOfCents(-5, '30')).toBe(-2n);
    expect(percentOfCents(333, '12.5')).toBe(42n);
    expect(percentOfCents(100, 'x')).toBeNull();
  });
});
