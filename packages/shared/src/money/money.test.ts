/**
 * The money module's properties for any input (fast-check): decimal text survives parse and format,
 * rounding is half away from zero and within half a unit, and every allocation (largest remainder, the
 * streaming rule, splits by percentage) conserves every unit of what it shares.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDecimal,
  allocateLargestRemainder,
  canonicalDecimal,
  centsToDecimal,
  decimalToCents,
  formatScaled,
  formatUsdDecimal,
  isZeroDecimal,
  multiplyDecimal,
  parseScaled,
  RunningShare,
  roundDecimal,
  roundScaled,
  splitByPercent,
  subtractDecimal,
  sumDecimals,
  trimScale,
} from '../money';

const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);
const abs = (value: bigint) => (value < 0n ? -value : value);

/** A decimal: up to 15 whole digits, up to 8 decimals (the import's bounds, decision 152). */
const scaled = fc.record({
  units: fc.bigInt({ min: -(10n ** 23n), max: 10n ** 23n }),
  scale: fc.integer({ min: 0, max: 8 }),
});
/** A list of weights with at least one above zero. */
const weights = fc
  .array(fc.bigInt({ min: 0n, max: 10n ** 9n }), { minLength: 1, maxLength: 40 })
  .filter((list) => list.some((weight) => weight > 0n));

describe('decimal text', () => {
  it('formats what it parses and parses what it formats', () => {
    fc.assert(
      fc.property(scaled, (value) => {
        const text = formatScaled(value);
        expect(parseScaled(text)).toEqual(value);
        expect(canonicalDecimal(text)).toBe(text === '-0' ? '0' : text);
      }),
    );
  });

  it('reads the forms a report writes and refuses what is not a plain decimal', () => {
    expect(canonicalDecimal('5.')).toBe('5');
    expect(canonicalDecimal('+0.50')).toBe('0.50');
    expect(canonicalDecimal('-.5')).toBe('-0.5');
    expect(canonicalDecimal('-0.00')).toBe('0.00');
    expect(canonicalDecimal('007')).toBe('7');
    for (const text of ['', '.', '-', '1e5', '1,000', '1.2.3', 'NaN', ' 1 2']) {
      expect(canonicalDecimal(text)).toBeNull();
      expect(parseScaled(text)).toBeNull();
    }
  });

  it('rounds half away from zero, within half a unit of the exact value', () => {
    fc.assert(
      fc.property(scaled, fc.integer({ min: 0, max: 8 }), (value, places) => {
        const rounded = roundScaled(value, places);
        expect(rounded.scale).toBe(places);
        // Both at the larger scale: |v − r| ≤ half a unit of the last place, exactly half only away from zero.
        const scale = Math.max(value.scale, places);
        const v = value.units * 10n ** BigInt(scale - value.scale);
        const r = rounded.units * 10n ** BigInt(scale - places);
        const unit = 10n ** BigInt(scale - places);
        expect(abs(v - r) * 2n <= unit).toBe(true);
        if (abs(v - r) * 2n === unit) expect(abs(r) > abs(v)).toBe(true);
      }),
    );
    expect(roundDecimal('1.005', 2)).toBe('1.01');
    expect(roundDecimal('-0.125', 2)).toBe('-0.13');
    expect(roundDecimal('0.0049', 2)).toBe('0.00');
  });

  it('multiplies exactly and converts to cents and dollars', () => {
    expect(multiplyDecimal('0.1', '0.2')).toBe('0.02');
    expect(multiplyDecimal('-3.123456789', '1.0825')).toBe('-3.3811419740925');
    expect(decimalToCents('12.345')).toBe(1235n);
    expect(decimalToCents('-0.005')).toBe(-1n);
    expect(formatUsdDecimal('1234.565')).toBe('$1,234.57');
    expect(formatUsdDecimal('-0.004')).toBe('$0.00');
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (cents) => {
        expect(decimalToCents(formatScaled({ units: cents, scale: 2 }))).toBe(cents);
      }),
    );
  });
});

describe('decimal sums', () => {
  it('adds any decimals exactly: the sum read back equals the sum of the values at the largest scale', () => {
    fc.assert(
      fc.property(fc.array(scaled, { maxLength: 12 }), (values) => {
        const scale = Math.max(0, ...values.map((value) => value.scale));
        const exact = sum(values.map((value) => value.units * 10n ** BigInt(scale - value.scale)));
        const total = parseScaled(sumDecimals(values.map(formatScaled)));
        expect(total).not.toBeNull();
        const read = total as { units: bigint; scale: number };
        expect(read.scale <= scale).toBe(true);
        expect(read.units * 10n ** BigInt(scale - read.scale)).toBe(exact);
      }),
    );
  });

  it('writes sums as trim_scale(sum(x))::text does and refuses text that is not a decimal', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(addDecimal('1.50', '-1.5')).toBe('0');
    expect(addDecimal('-0.25', '0.05')).toBe('-0.2');
    expect(subtractDecimal('10.00', '-0.005')).toBe('10.005');
    expect(subtractDecimal('1', '1.000')).toBe('0');
    expect(sumDecimals([])).toBe('0');
    expect([isZeroDecimal('-0.000'), isZeroDecimal('0.001'), isZeroDecimal('')]).toEqual([
      true,
      false,
      false,
    ]);
    expect(sumDecimals(['12', '0.000000001', '-3.1'])).toBe('8.900000001');
    expect(() => sumDecimals(['1', 'abc'])).toThrow(RangeError);
    expect(trimScale('1.2500')).toBe('1.25');
    expect(trimScale('3.000')).toBe('3');
    expect(trimScale('-0.00')).toBe('0');
    expect(trimScale('100')).toBe('100');
  });

  it('writes cents as two-decimal text', () => {
    expect(centsToDecimal(1234)).toBe('12.34');
    expect(centsToDecimal(-5)).toBe('-0.05');
    expect(centsToDecimal(0)).toBe('0.00');
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 12), max: 10 ** 12 }), (cents) => {
        expect(centsToDecimal(cents)).toBe((cents / 100).toFixed(2));
      }),
    );
  });
});

describe('allocation conserves every unit', () => {
  it('largest remainder: the parts add up to the total, each within one unit of its exact share', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), weights, (total, list) => {
        const parts = allocateLargestRemainder(total, list);
        expect(sum(parts)).toBe(total);
        const whole = sum(list);
        parts.forEach((part, index) => {
          const exactTimesWhole = total * (list[index] as bigint);
          // |part − total × w / Σw| < 1  ⇔  |part × Σw − total × w| < Σw
          expect(abs(part * whole - exactTimesWhole) < whole).toBe(true);
          if (list[index] === 0n) expect(part).toBe(0n);
        });
      }),
    );
  });

  it('the streaming rule: shares add up to the total once the weights reach it, each within one unit', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), weights, (total, list) => {
        const whole = sum(list);
        const running = new RunningShare(total, whole);
        const shares = list.map((weight) => running.next(weight));
        expect(running.isComplete).toBe(true);
        expect(sum(shares as bigint[])).toBe(total);
        shares.forEach((share, index) => {
          expect(abs((share as bigint) * whole - total * (list[index] as bigint)) < whole).toBe(true);
        });
      }),
    );
  });

  it('the streaming rule refuses weights beyond the stated total', () => {
    const running = new RunningShare(100n, 3n);
    expect(running.next(2n)).toBe(67n);
    expect(running.next(2n)).toBeNull();
  });

  it('splits: percentages adding up to 100 share a group to the cent, the owner keeping the residue', () => {
    const percents = fc
      .array(fc.integer({ min: 0, max: 10000 }), { minLength: 1, maxLength: 8 })
      .map((cuts) => {
        // Cut points on 0..10000 give shares (hundredths of a percent) that add up to exactly 100%.
        const points = [0, ...cuts.sort((a, b) => a - b), 10000];
        return points.slice(1).map((point, index) => BigInt(point - (points[index] as number)));
      });
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 13n), max: 10n ** 13n }), percents, (cents, shares) => {
        const { owner, payees } = splitByPercent(cents, shares);
        expect(owner + sum(payees)).toBe(cents);
        payees.forEach((paid, index) => {
          const exact = cents * (shares[index] as bigint);
          // Truncated toward zero: never more than the exact share, less by under one cent.
          expect(abs(paid * 10000n) <= abs(exact)).toBe(true);
          expect(abs(exact - paid * 10000n) < 10000n).toBe(true);
        });
        // The owner's residue is under one cent per payee.
        expect(abs(owner) < BigInt(payees.length)).toBe(true);
      }),
    );
  });

  it('refuses weights it cannot share by', () => {
    expect(() => allocateLargestRemainder(10n, [0n, 0n])).toThrow(RangeError);
    expect(() => allocateLargestRemainder(10n, [-1n, 2n])).toThrow(RangeError);
    expect(() => splitByPercent(100n, [6000n, 5000n])).toThrow(RangeError);
  });
});
