/** The exchange rate rule shared by the upload form, the import route and the CLI (decision 152). */
import { describe, expect, it } from 'vitest';
import { royaltyImportQuerySchema } from './royalties';

const BOUNDS = 'The exchange rate must be between 0.000000001 and 1000 USD per unit of the report currency';
const rateIssue = (rate: string) => {
  const result = royaltyImportQuerySchema.safeParse({ rate });
  return result.success ? null : result.error.issues[0]?.message;
};

describe('exchange rate to USD', () => {
  it.each(['1', '1.0825', ' 0.0000238 ', '0.000000001', '1000', '3.2600000000000000001'])(
    'accepts %j',
    (rate) => {
      expect(rateIssue(rate)).toBeNull();
    },
  );

  it.each([
    ['100000000000000000000000', BOUNDS],
    ['1000.01', BOUNDS],
    ['0.0000000009', BOUNDS],
    ['1.000000000000000000001', BOUNDS],
    ['0', 'The exchange rate must be above 0'],
    ['-1.2', 'The exchange rate must be above 0'],
    ['1e23', 'The exchange rate must be a decimal number such as 1.0825'],
    ['1,08', 'The exchange rate must be a decimal number such as 1.0825'],
  ])('refuses %j: %s', (rate, message) => {
    expect(rateIssue(rate)).toBe(message);
  });
});
