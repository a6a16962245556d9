import { multiplyDecimal, roundDecimal } from '@tunedrop/shared/money';
import { describe, expect, it } from 'vitest';
import { formatDecimal, formatUnits } from './decimal';

describe('exact decimals for display', () => {
  it('rounds half away from zero without floats', () => {
    expect(roundDecimal('1.005', 2)).toBe('1.01');
    expect(roundDecimal('-0.125', 2)).toBe('-0.13');
    expect(roundDecimal('2.5', 2)).toBe('2.50');
    expect(roundDecimal('0.0049', 2)).toBe('0.00');
  });
  it('multiplies exactly', () => {
    expect(multiplyDecimal('5000', '1.25')).toBe('6250.00');
    expect(multiplyDecimal('0.1', '0.2')).toBe('0.02');
    expect(multiplyDecimal('-3.123456789', '1.0825')).toBe('-3.3811419740925');
  });
  it('formats with grouping and currency', () => {
    expect(formatDecimal('1234567.891', 'GBP')).toBe('1,234,567.89 GBP');
    expect(formatDecimal('-0.7', 'USD')).toBe('-0.70 USD');
    expect(formatUnits('1234567')).toBe('1,234,567');
    expect(formatUnits('-1234.5')).toBe('-1,234.5');
    expect(formatDecimal('-1234.5', '')).toBe('-1,234.50');
  });
});
