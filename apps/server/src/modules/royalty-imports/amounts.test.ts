/**
 * The streaming allocation of a DSR summary's revenue over its sales lines (decision 111), for any
 * revenue and any usages: the lines' amounts add up to the summary's NetRevenue to the last digit.
 */
import { formatScaled, parseScaled } from '@tunedrop/shared/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamingAllocator } from './amounts';

const revenue = fc
  .record({
    units: fc.bigInt({ min: -(10n ** 14n), max: 10n ** 14n }),
    scale: fc.integer({ min: 0, max: 6 }),
  })
  .map(formatScaled);
const lines = fc.array(fc.record({ units: fc.bigInt({ min: 0n, max: 10n ** 6n }), bearing: fc.boolean() }), {
  minLength: 1,
  maxLength: 30,
});

describe('StreamingAllocator', () => {
  it('shares a summary so its lines add up to its revenue exactly', () => {
    fc.assert(
      fc.property(revenue, lines, (net, sales) => {
        const usages = sales.reduce((total, line) => total + (line.bearing ? line.units : 0n), 0n);
        fc.pre(usages > 0n);
        const allocator = new StreamingAllocator([{ id: 'S', netRevenue: net, usages: String(usages) }]);
        const amounts = sales.map((line) => allocator.share('S', String(line.units), line.bearing));
        expect(allocator.fallbacks()).toEqual([]);
        const scale = Math.max(2, parseScaled(net)?.scale ?? 0);
        const total = amounts.reduce((sum, amount) => {
          const parsed = parseScaled(amount ?? 'x');
          expect(parsed?.scale).toBe(scale);
          return sum + (parsed?.units ?? 0n);
        }, 0n);
        const netUnits = parseScaled(net)?.units ?? 0n;
        expect(total).toBe(netUnits * 10n ** BigInt(scale - (parseScaled(net)?.scale ?? 0)));
        // A line with no royalty-bearing usages gets nothing.
        sales.forEach((line, index) => {
          if (!line.bearing || line.units === 0n) expect(parseScaled(amounts[index] ?? 'x')?.units).toBe(0n);
        });
      }),
    );
  });

  it('hands a summary to SQL when its lines do not add up to its usages', () => {
    const allocator = new StreamingAllocator([{ id: 'S', netRevenue: '10', usages: '5' }]);
    expect(allocator.share('S', '3', true)).toBe('6.00');
    expect(allocator.share('S', '3', true)).toBeNull();
    expect(allocator.fallbacks()).toEqual(['S']);
    const short = new StreamingAllocator([{ id: 'T', netRevenue: '10', usages: '5' }]);
    expect(short.share('T', '2', true)).toBe('4.00');
    expect(short.fallbacks()).toEqual(['T']);
  });
});
