/** The fee percentage rule (record 189): exact decimals from 0 to 100 with at most 4 decimals. */
import { describe, expect, it } from 'vitest';
import { feePercentSchema, feeSettingsSchema, isFeePercent } from './finance';

describe('fee percentage', () => {
  it('accepts 0 to 100 with at most 4 decimals and normalizes them', () => {
    for (const [typed, saved] of [
      ['0', '0'],
      ['15', '15'],
      ['015.50', '15.5'],
      ['12.3456', '12.3456'],
      ['100', '100'],
      ['100.0000', '100'],
      [' 7.5 ', '7.5'],
    ] as const) {
      expect(feePercentSchema.parse(typed), typed).toBe(saved);
    }
  });

  it('refuses anything else', () => {
    for (const bad of ['', '-1', '100.0001', '101', '12.34567', '1e2', 'abc', '.5', '5.', '1,5', '0x10']) {
      expect(isFeePercent(bad.trim()), bad).toBe(false);
      expect(feePercentSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(feeSettingsSchema.safeParse({ basic: '10', pro: '200', payee: '0' }).success).toBe(false);
  });
});
