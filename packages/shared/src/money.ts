/**
 * Money: integer cents for balances (cents.ts), exact decimal text as scaled BigInt for report amounts
 * and rates (decimal.ts), and the allocation rules that conserve every unit (allocation.ts). The one
 * money module of server and web (decision 165).
 */
export * from './money/allocation';
export * from './money/cents';
export * from './money/decimal';
export * from './money/report-cents';
