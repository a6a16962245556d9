/**
 * The operator's fee and the finance overview (issue 25, record 189): one rule for a fee percentage (an
 * exact decimal from 0 to 100, at most 4 decimals), the fee settings per plan and per account, and the
 * shapes of the finance overview API.
 */
import { z } from 'zod';
import type { ReportCents } from '../money/report-cents';
import { safeText } from '../text';

export const FEE_TEXTS = {
  percentInvalid: 'Enter a percentage from 0 to 100 with at most 4 decimals.',
  saved: 'Fees saved',
  accountSaved: 'Fee saved for this account',
  accountCleared: 'This account now pays its plan’s fee',
} as const;

/** The plans a fee is set for: Basic, Pro and payee accounts (no plan). */
export const FEE_PLANS = ['basic', 'pro', 'payee'] as const;
export type FeePlan = (typeof FEE_PLANS)[number];
export const FEE_PLAN_LABELS: Record<FeePlan, string> = {
  basic: 'Basic',
  pro: 'Pro',
  payee: 'Payees (no plan)',
};

/** True for an exact percentage from 0 to 100 with at most 4 decimals ("15", "12.5", "0.0001"). */
export function isFeePercent(value: string): boolean {
  if (!/^\d{1,3}(\.\d{1,4})?$/.test(value)) return false;
  const [whole = '0', fraction = ''] = value.split('.');
  const wholeNumber = Number(whole);
  return wholeNumber < 100 || (wholeNumber === 100 && /^0*$/.test(fraction));
}

/** A fee percentage as typed: trimmed, normalized ("015.50" -> "15.5"). */
export const feePercentSchema = safeText()
  .trim()
  .max(9, FEE_TEXTS.percentInvalid)
  .refine(isFeePercent, FEE_TEXTS.percentInvalid)
  .transform(normalizeFeePercent);

export function normalizeFeePercent(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.');
  const cleanWhole = String(Number(whole));
  const cleanFraction = fraction.replace(/0+$/, '');
  return cleanFraction ? `${cleanWhole}.${cleanFraction}` : cleanWhole;
}

export const feeSettingsSchema = z.object({
  basic: feePercentSchema,
  pro: feePercentSchema,
  payee: feePercentSchema,
});
export type FeeSettingsInput = z.output<typeof feeSettingsSchema>;
export type FeeSettingsView = Record<FeePlan, string>;

/** An account's override; null gives the account its plan's fee again. */
export const accountFeeSchema = z.object({ feePercent: feePercentSchema.nullable() });
export type AccountFeeInput = z.output<typeof accountFeeSchema>;
export type AccountFeeView = {
  /** The override, or null when the plan's fee applies. */
  override: string | null;
  /** The plan the account's fee follows without an override. */
  plan: FeePlan;
  planPercent: string;
  /** What the next posting takes. */
  effective: string;
};

/** One posted report in the overview. Money in USD cents except the report-currency gross (exact). */
export type FinanceReportRow = {
  importId: string;
  fileName: string;
  period: string;
  postedAt: string;
  currency: string;
  rate: string;
  /** Matched and unmatched lines, in the report currency (exact). */
  grossReport: string;
  /** The same in USD, exact. */
  grossUsd: string;
  feeCents: number;
  creditedCents: number;
  heldCents: number;
  /** Unmatched money booked to suspense (USD, exact). */
  suspenseUsd: string;
  /** Sub-cent remainders of the truncations (USD, exact). */
  residueUsd: string;
  /** grossUsd − (credited + held + fee)/100 − suspense − residue: zero when the report reconciles. */
  differenceUsd: string;
  /** The figures shown, in whole cents by the one rule of money/report-cents.ts: they add up to the gross. */
  cents: ReportCents;
};

export type FinancePeriodRow = {
  period: string;
  reports: number;
  grossUsd: string;
  feeCents: number;
  creditedCents: number;
  heldCents: number;
  suspenseUsd: string;
  residueUsd: string;
  /** The sum of its reports' `cents`. */
  cents: ReportCents;
  withdrawalsPaidCents: number;
  withdrawalsPendingCents: number;
};

export type FinanceLiability = {
  balancesCents: number;
  pendingWithdrawalsCents: number;
  heldSharesCents: number;
  /** balances + pending withdrawals + held shares, from the accounts. */
  totalCents: number;
  /** The same from the ledger: balance log deltas + pending withdrawal requests + unreleased held settlements. */
  ledgerCents: number;
  reconciles: boolean;
};

export type FinanceOverview = {
  reports: FinanceReportRow[];
  periods: FinancePeriodRow[];
  liability: FinanceLiability;
  operatorRevenue: { feeCents: number; suspenseReleasedCents: number; totalCents: number };
};

/**
 * What a posting credits (or credited): the same figures in the confirmation and in the result. Cents
 * are USD; credited includes accepted payees' shares, held is pending invitations' shares.
 */
export type PostingFigures = {
  posted: boolean;
  creditedCents: number;
  heldCents: number;
  /** Held back from contract payees as royalty reserves, released in later months (record 287). */
  reservedCents: number;
  feeCents: number;
  /** Balances credited (owners and accepted payees). */
  artists: number;
  /** The matched lines in USD, exact. */
  grossUsd: string;
  /** The unmatched lines in USD, exact: booked to suspense. */
  suspenseUsd: string;
};
